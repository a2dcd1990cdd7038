/// The version `segue --version` prints: the one place the tool's version is written.
let segueVersion = "0.1.0"
