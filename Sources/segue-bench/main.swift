import Segue

print(Transform3D.identity.determinant)
