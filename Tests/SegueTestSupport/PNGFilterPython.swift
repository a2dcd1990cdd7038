/// PNG's five scanline filters (PNG specification §9: None, Sub, Up, Average, Paeth) in Python,
/// for the independent decoders the tests run: `predict(f, line, prev, i)` is the predictor of
/// byte `i` of a 4-byte-per-pixel row under filter `f`, and `unfilter(f, line, prev)` undoes
/// filter `f` on `line` in place (`prev` the previous unfiltered row), raising `ValueError` for
/// a filter type above 4. Interpolate ``definitions`` at the top level of a script.
public enum PNGFilterPython {
  /// The two Python functions, at column 0.
  public static let definitions = """
    def predict(f, line, prev, i):
        a = line[i - 4] if i >= 4 else 0
        b = prev[i]
        c = prev[i - 4] if i >= 4 else 0
        if f == 0: return 0
        if f == 1: return a
        if f == 2: return b
        if f == 3: return (a + b) // 2
        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
    def unfilter(f, line, prev):
        if f > 4: raise ValueError('filter type %d' % f)
        for i in range(len(line)): line[i] = (line[i] + predict(f, line, prev, i)) & 255
    """
}
