#if SEGUE_BLAS
  import CBLAS
  import Testing

  /// The CBLAS system library links and computes: `C = A · B` for small matrices worked by hand.
  @Suite("CBLAS smoke test")
  struct CBLASSmokeTests {
    /// Row-major A (2×3) = [[1, 2, 3], [4, 5, 6]], B (3×2) = [[7, 8], [9, 10], [11, 12]].
    /// By hand: C = [[1·7 + 2·9 + 3·11, 1·8 + 2·10 + 3·12], [4·7 + 5·9 + 6·11, 4·8 + 5·10 + 6·12]]
    ///            = [[58, 64], [139, 154]].
    @Test func sgemmMultipliesASmallMatrix() {
      let a: [Float] = [1, 2, 3, 4, 5, 6]
      let b: [Float] = [7, 8, 9, 10, 11, 12]
      var c = [Float](repeating: -1, count: 4)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1, a, 3, b, 2, 0, &c, 2)
      #expect(c == [58, 64, 139, 154])
    }

    /// With alpha 2 and beta 1 on a non-zero C: C' = 2·A·B + C, A = I₂, B = [[1, 2], [3, 4]],
    /// C = [[10, 20], [30, 40]] gives [[12, 24], [36, 48]]; transposing B gives [[12, 26], [34, 48]].
    @Test func sgemmHonoursAlphaBetaAndTranspose() {
      let a: [Float] = [1, 0, 0, 1]
      let b: [Float] = [1, 2, 3, 4]
      var c: [Float] = [10, 20, 30, 40]
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, a, 2, b, 2, 1, &c, 2)
      #expect(c == [12, 24, 36, 48])
      var ct: [Float] = [10, 20, 30, 40]
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 2, 2, 2, 2, a, 2, b, 2, 1, &ct, 2)
      #expect(ct == [12, 26, 34, 48])
    }
  }
#endif
