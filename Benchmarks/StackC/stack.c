/*
 * The `stack` benchmark workload in C: Segue's own reference for comparing segue-bench's `simd`
 * path with a plain C kernel on the same machine. The workload (its layers, the evaluation and the
 * checksum) is defined in Segue's DocC article "Benchmark workloads"; this program follows it:
 *
 *   - layers from splitmix64 (seed 42), drawn and mapped in double, stored rounded to float in
 *     planes (structure of arrays): start, duration, curve index, 24 key planes;
 *   - per layer at time t: progress x = clamp((t - s)/d, 0, 1); the cubic-bezier curve solved for
 *     X(s) = x by a 64-cell inverse table and two Newton steps, accepted when the residual is below
 *     1e-7 or half an ulp of s times the slope (else bisection, after the pass); the segment of
 *     y among the key times [0, 0.3, 0.7, 1]; Catmull-Rom by key index for the six channels;
 *     the closed-form matrix T(-a) . S(scale) . Rz(rot) . T(tx, ty, tz) . P . T(a); opacity
 *     clamped to [0, 1];
 *   - 17 output planes (m11 ... m44, opacity), float;
 *   - the checksum: the sum over layers of the 17 outputs, in double.
 *
 * Timed, as segue-bench times it: one pass over all layers at t into the preallocated planes,
 * after one untimed warm-up pass; the median and best of --repeats passes. One thread.
 *
 * Build: cc -O3 -march=native -fopenmp-simd stack.c -lm (see run.sh).
 * Usage: stack [--n N] [--t T] [--repeats R] [--format text|json] [--check]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHANNELS = 6, KEYS = 4, OUTPUTS = 17, CURVES = 4, CELLS = 64 };

static const double screenWidth = 390, screenHeight = 844, eyeDistance = 500;
static const double durations[3] = {0.2, 0.35, 0.5};
/* easeIn, easeOut, easeInEaseOut, default: (x1, y1, x2, y2). */
static const double controlPoints[CURVES][4] = {
    {0.42, 0, 1, 1}, {0, 0, 0.58, 1}, {0.42, 0, 0.58, 1}, {0.25, 0.1, 0.25, 1}};

/* One timing curve: polynomial coefficients X(s) = ((ax s + bx) s + cx) s (the same for Y) and the
 * inverse table: s at x = i/CELLS, i = 0 ... CELLS. */
typedef struct {
  float ax, bx, cx, ay, by, cy;
  float table[CELLS + 1];
} Curve;

static Curve curves[CURVES];

typedef struct {
  size_t n;
  float *start, *duration; /* seconds */
  uint8_t *curve;
  float *keys[CHANNELS * KEYS]; /* key k of channel c at keys[c * KEYS + k] */
  float *out[OUTPUTS];
  uint8_t *failed;              /* lanes whose curve solve was not accepted */
} Layers;

static uint64_t splitmixState = 42;

static double draw(void) {
  splitmixState += 0x9E3779B97F4A7C15ull;
  uint64_t z = splitmixState;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

static void *planeOf(size_t n, size_t size) {
  /* 64-byte aligned, padded so that planes are not a power of two apart. */
  void *p = aligned_alloc(64, ((n * size + 63) / 64 + 1) * 64);
  if (!p) {
    fprintf(stderr, "stack: out of memory\n");
    exit(70);
  }
  return p;
}

static double bezierX(const double *c, double s) {
  double cx = 3 * c[0], bx = 3 * (c[2] - c[0]) - cx, ax = 1 - cx - bx;
  return ((ax * s + bx) * s + cx) * s;
}

static double bezierY(const double *c, double s) {
  double cy = 3 * c[1], by = 3 * (c[3] - c[1]) - cy, ay = 1 - cy - by;
  return ((ay * s + by) * s + cy) * s;
}

/* s with X(s) = x in double, by bisection to the last bit (X is increasing for x1, x2 in [0, 1]). */
static double solveDouble(const double *c, double x) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 100 && lo < hi; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (bezierX(c, mid) < x) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

static void prepareCurves(void) {
  for (int k = 0; k < CURVES; k++) {
    const double *c = controlPoints[k];
    double cx = 3 * c[0], bx = 3 * (c[2] - c[0]) - cx, cy = 3 * c[1], by = 3 * (c[3] - c[1]) - cy;
    curves[k].cx = (float)cx;
    curves[k].bx = (float)bx;
    curves[k].ax = (float)(1 - cx - bx);
    curves[k].cy = (float)cy;
    curves[k].by = (float)by;
    curves[k].ay = (float)(1 - cy - by);
    for (int i = 0; i <= CELLS; i++) curves[k].table[i] = (float)solveDouble(c, (double)i / CELLS);
  }
}

static void generate(Layers *L, size_t n) {
  static const double scale[CHANNELS] = {2 * 390.0, 2 * 844.0, 300, 1, 2 * M_PI, 1};
  static const double shift[CHANNELS] = {-0.5, -0.5, -0.5, 0.5, -0.5, 0};
  memset(L, 0, sizeof *L);
  L->n = n;
  L->start = planeOf(n, sizeof(float));
  L->duration = planeOf(n, sizeof(float));
  L->curve = planeOf(n, 1);
  L->failed = planeOf(n, 1);
  for (int p = 0; p < CHANNELS * KEYS; p++) {
    L->keys[p] = planeOf(n, sizeof(float));
  }
  for (int p = 0; p < OUTPUTS; p++) L->out[p] = planeOf(n, sizeof(float));
  for (size_t j = 0; j < n; j++) {
    double s = 0.5 * draw(), d = durations[j % 3];
    L->start[j] = (float)s;
    L->duration[j] = (float)d;
    L->curve[j] = (uint8_t)(j % CURVES);
    for (int c = 0; c < CHANNELS; c++) {
      for (int k = 0; k < KEYS; k++) {
        /* tx, ty, tz: (u - 0.5) * span; scale: 0.5 + u; rot: (u - 0.5) * 2 pi; opacity: u. */
        double v = (draw() + shift[c]) * scale[c];
        L->keys[c * KEYS + k][j] = (float)v;
      }
    }
  }
}

/* sin and cos of r in [-pi/4, pi/4] by their Taylor polynomials (error below 2e-9). */
static inline __attribute__((always_inline)) void sinCosReduced(float r, float *s, float *c) {
  float r2 = r * r;
  *s = r * (1 + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  *c = 1 + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 +
                                                                   r2 * (-1.0f / 3628800)))));
}

/* sin and cos of x: x = q pi/2 + r with r in [-pi/4, pi/4] (pi/2 split in two parts so that q pi/2
 * is exact for |q| < 2^12), then the quadrant q mod 4 swaps and negates. */
static inline __attribute__((always_inline)) void sinCos(float x, float *s, float *c) {
  const float halfPiHigh = 1.5703125f, halfPiLow = 4.83826794896619e-4f;
  float q = nearbyintf(x * 0.636619772f);
  float r = (x - q * halfPiHigh) - q * halfPiLow;
  float sr, cr;
  sinCosReduced(r, &sr, &cr);
  int quadrant = (int)q & 3;
  float sn = (quadrant & 1) ? cr : sr, cs = (quadrant & 1) ? sr : cr;
  *s = (quadrant & 2) ? -sn : sn;
  *c = ((quadrant + 1) & 2) ? -cs : cs;
}

/* The progress y of the curve at x from the inverse table and two Newton steps; `*ok` is 0 when
 * the residual at the final s is not accepted (the caller then bisects). */
static inline __attribute__((always_inline)) float solveCurve(const Curve *k, float x, int *ok) {
  float cell = x * CELLS;
  int i = (int)cell;
  i = i > CELLS - 1 ? CELLS - 1 : i;
  float f = cell - (float)i;
  float s = k->table[i] + f * (k->table[i + 1] - k->table[i]);
  float ax = k->ax, bx = k->bx, cx = k->cx;
  float e = ((ax * s + bx) * s + cx) * s - x, slope = (3 * ax * s + 2 * bx) * s + cx;
  s = fabsf(slope) >= 1e-7f ? s - e / slope : s;
  s = s < 0 ? 0 : (s > 1 ? 1 : s);
  e = ((ax * s + bx) * s + cx) * s - x;
  slope = (3 * ax * s + 2 * bx) * s + cx;
  s = fabsf(slope) >= 1e-7f ? s - e / slope : s;
  s = s < 0 ? 0 : (s > 1 ? 1 : s);
  e = ((ax * s + bx) * s + cx) * s - x;
  slope = (3 * ax * s + 2 * bx) * s + cx;
  *ok = fabsf(e) < 1e-7f || fabsf(e) <= 6e-8f * fabsf(slope);
  return ((k->ay * s + k->by) * s + k->cy) * s;
}

/* Bisection on [0, 1] in float for the lanes the table and Newton steps did not settle (bounded:
 * in float the midpoint stops moving after about 24 halvings). */
static float solveCurveBisection(const Curve *k, float x) {
  float lo = 0, hi = 1, s = 0.5f;
  for (int i = 0; i < 40; i++) {
    s = 0.5f * (lo + hi);
    float e = ((k->ax * s + k->bx) * s + k->cx) * s - x;
    if (fabsf(e) < 1e-7f || s <= lo || s >= hi) break;
    if (e < 0) lo = s; else hi = s;
  }
  return ((k->ay * s + k->by) * s + k->cy) * s;
}

/* The plane pointers of one frame, loaded once (restrict: the planes never overlap). */
typedef struct {
  const float *__restrict key[CHANNELS * KEYS];
  float *__restrict out[OUTPUTS];
} Planes;

/* Keys, channels, matrix and opacity of layer j at the curve output y. */
static inline __attribute__((always_inline)) void writeLayer(const Planes *P, size_t j, float y) {
  const float t1 = 0.3f, t2 = 0.7f;
  int upper = y >= t2, middle = y >= t1 && !upper;
  float t0 = upper ? t2 : (middle ? t1 : 0), span = upper ? 1 - t2 : (middle ? t2 - t1 : t1);
  float v = (y - t0) / span;
  float v2 = v * v, v3 = v2 * v;
  float h00 = 2 * v3 - 3 * v2 + 1, h10 = v3 - 2 * v2 + v, h01 = -2 * v3 + 3 * v2, h11 = v3 - v2;
  float value[CHANNELS];
  for (int c = 0; c < CHANNELS; c++) {
    float k0 = P->key[c * KEYS][j], k1 = P->key[c * KEYS + 1][j];
    float k2 = P->key[c * KEYS + 2][j], k3 = P->key[c * KEYS + 3][j];
    /* p_i, p_{i+1} and the tangents (p_{i+1} - p_{i-1})/2, (p_{i+2} - p_i)/2, ends duplicated. */
    float a = upper ? k2 : (middle ? k1 : k0);
    float b = upper ? k3 : (middle ? k2 : k1);
    float before = upper ? k1 : k0;
    float after = upper ? k3 : (middle ? k3 : k2);
    value[c] = h00 * a + h10 * 0.5f * (b - before) + h01 * b + h11 * 0.5f * (after - a);
  }
  const float ax = (float)(screenWidth / 2), ay = (float)(screenHeight / 2);
  const float q = (float)(-1 / eyeDistance);
  float sn, cs;
  sinCos(value[4], &sn, &cs);
  float sc = value[3] * cs, ss = value[3] * sn, w = 1 + q * value[2];
  float opacity = value[5] < 0 ? 0 : (value[5] > 1 ? 1 : value[5]);
  P->out[0][j] = sc;
  P->out[1][j] = ss;
  P->out[2][j] = 0;
  P->out[3][j] = 0;
  P->out[4][j] = -ss;
  P->out[5][j] = sc;
  P->out[6][j] = 0;
  P->out[7][j] = 0;
  P->out[8][j] = q * ax;
  P->out[9][j] = q * ay;
  P->out[10][j] = 1;
  P->out[11][j] = q;
  P->out[12][j] = value[0] - ax * sc + ay * ss + w * ax;
  P->out[13][j] = value[1] - ax * ss - ay * sc + w * ay;
  P->out[14][j] = value[2];
  P->out[15][j] = w;
  P->out[16][j] = opacity;
}

/* One frame: every layer at time t into the output planes; the few layers whose curve solve was
 * not accepted are solved again by bisection after the pass. */
static void evaluate(Layers *L, float t) {
  Planes P;
  for (int p = 0; p < CHANNELS * KEYS; p++) P.key[p] = L->keys[p];
  for (int p = 0; p < OUTPUTS; p++) P.out[p] = L->out[p];
  const float *__restrict start = L->start, *__restrict duration = L->duration;
  const uint8_t *__restrict curve = L->curve;
  uint8_t *__restrict failed = L->failed;
  size_t n = L->n;
  int anyFailed = 0;
#pragma omp simd reduction(| : anyFailed)
  for (size_t j = 0; j < n; j++) {
    float x = (t - start[j]) / duration[j];
    x = x < 0 ? 0 : (x > 1 ? 1 : x);
    int ok;
    float y = solveCurve(&curves[curve[j]], x, &ok);
    failed[j] = (uint8_t)!ok;
    anyFailed |= !ok;
    writeLayer(&P, j, y);
  }
  if (!anyFailed) return;
  for (size_t j = 0; j < n; j++) {
    if (!failed[j]) continue;
    float x = (t - start[j]) / duration[j];
    x = x < 0 ? 0 : (x > 1 ? 1 : x);
    writeLayer(&P, j, solveCurveBisection(&curves[curve[j]], x));
  }
}

static double checksum(const Layers *L) {
  double sum = 0;
  for (size_t j = 0; j < L->n; j++)
    for (int o = 0; o < OUTPUTS; o++) sum += (double)L->out[o][j];
  return sum;
}

/* Layer j at t in double, straight from the definition (bisection to the last bit), from the
 * inputs as the float kernel stores them (t, start, duration and keys rounded to float), for
 * --check: the difference is the kernel's own arithmetic. */
static void referenceLayer(const Layers *L, size_t j, double t, double out[OUTPUTS]) {
  static const double keyTimes[KEYS] = {0, 0.3, 0.7, 1};
  double x = ((double)(float)t - (double)L->start[j]) / (double)L->duration[j];
  x = x < 0 ? 0 : (x > 1 ? 1 : x);
  const double *c = controlPoints[j % CURVES];
  double y = bezierY(c, solveDouble(c, x));
  int i = y >= keyTimes[2] ? 2 : (y >= keyTimes[1] ? 1 : 0);
  double v = (y - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i]);
  double value[CHANNELS];
  for (int ch = 0; ch < CHANNELS; ch++) {
    double p[KEYS + 2];
    for (int k = 0; k < KEYS; k++) p[k + 1] = (double)L->keys[ch * KEYS + k][j];
    p[0] = p[1];
    p[KEYS + 1] = p[KEYS];
    double m0 = (p[i + 2] - p[i]) / 2, m1 = (p[i + 3] - p[i + 1]) / 2;
    value[ch] = (2 * v * v * v - 3 * v * v + 1) * p[i + 1] + (v * v * v - 2 * v * v + v) * m0 +
                (-2 * v * v * v + 3 * v * v) * p[i + 2] + (v * v * v - v * v) * m1;
  }
  double ax = screenWidth / 2, ay = screenHeight / 2, q = -1 / eyeDistance;
  double sc = value[3] * cos(value[4]), ss = value[3] * sin(value[4]), w = 1 + q * value[2];
  double m[OUTPUTS] = {sc, ss, 0, 0, -ss, sc, 0, 0, q * ax, q * ay, 1, q,
                       value[0] - ax * sc + ay * ss + w * ax, value[1] - ax * ss - ay * sc + w * ay,
                       value[2], w, value[5] < 0 ? 0 : (value[5] > 1 ? 1 : value[5])};
  memcpy(out, m, sizeof m);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void usage(void) {
  fprintf(stderr, "usage: stack [--n N] [--t T] [--repeats R] [--format text|json] [--check]\n");
  exit(64);
}

int main(int argc, char **argv) {
  long n = 1000000, repeats = 5;
  double t = 0.3;
  int json = 0, check = 0;
  for (int a = 1; a < argc; a++) {
    char *end = NULL;
    if (!strcmp(argv[a], "--n") && a + 1 < argc) {
      double value = strtod(argv[++a], &end);
      if (*end || value != floor(value) || value < 1000 || value > 1e7) usage();
      n = (long)value;
    } else if (!strcmp(argv[a], "--t") && a + 1 < argc) {
      t = strtod(argv[++a], &end);
      if (*end || !isfinite(t)) usage();
    } else if (!strcmp(argv[a], "--repeats") && a + 1 < argc) {
      repeats = strtol(argv[++a], &end, 10);
      if (*end || repeats < 1 || repeats > 100000) usage();
    } else if (!strcmp(argv[a], "--format") && a + 1 < argc) {
      a++;
      if (!strcmp(argv[a], "json")) json = 1;
      else if (strcmp(argv[a], "text")) usage();
    } else if (!strcmp(argv[a], "--check")) {
      check = 1;
    } else {
      usage();
    }
  }
  prepareCurves();
  Layers layers;
  generate(&layers, (size_t)n);
  evaluate(&layers, (float)t); /* warm-up, not timed */
  double *seconds = malloc(sizeof(double) * (size_t)repeats);
  for (long r = 0; r < repeats; r++) {
    double start = now();
    evaluate(&layers, (float)t);
    seconds[r] = now() - start;
  }
  double sum = checksum(&layers);
  qsort(seconds, (size_t)repeats, sizeof(double), compareDoubles);
  double median = repeats % 2 ? seconds[repeats / 2]
                              : 0.5 * (seconds[repeats / 2 - 1] + seconds[repeats / 2]);
  double best = seconds[0];
  double bytes = (double)n * OUTPUTS * sizeof(float);
  double worstTranslation = 0, worstOther = 0;
  if (check) {
    /* Every value of the first 10 000 layers against the double evaluation: m41, m42, m43 in
     * points, the others relative to max(1, |reference|). In float the curve's y carries up to
     * about 3e-7 (the solver's 1e-7 on x times the slope, and Y's own rounding), and tx, ty move
     * by up to 8000 points per unit of y: hence 5e-3 points. */
    size_t count = (size_t)n < 10000 ? (size_t)n : 10000;
    for (size_t j = 0; j < count; j++) {
      double ref[OUTPUTS];
      referenceLayer(&layers, j, t, ref);
      for (int o = 0; o < OUTPUTS; o++) {
        double e = fabs((double)layers.out[o][j] - ref[o]);
        if (o >= 12 && o <= 14) {
          worstTranslation = e > worstTranslation ? e : worstTranslation;
        } else {
          e /= fmax(1, fabs(ref[o]));
          worstOther = e > worstOther ? e : worstOther;
        }
      }
    }
  }
  int checkFailed = check && (worstTranslation > 5e-3 || worstOther > 1e-5);
  if (json) {
    printf("{\"workload\":\"stack\",\"n\":%ld,\"t\":%.17g,\"times\":[%.17g],\"threads\":1,"
           "\"path\":\"c\",\"layout\":\"planar\",\"passes\":%ld,\"medianSeconds\":%.17g,"
           "\"bestSeconds\":%.17g,\"layerEvalsPerSecond\":%.17g,\"bestLayerEvalsPerSecond\":%.17g,"
           "\"nsPerLayer\":%.17g,\"outputGBPerSecond\":%.17g,\"checksum\":%.17g",
           n, t, t, repeats, median, best, n / median, n / best, median / n * 1e9,
           bytes / median / 1e9, sum);
    if (check)
      printf(",\"maxTranslationError\":%.3g,\"maxRelativeError\":%.3g", worstTranslation,
             worstOther);
    printf("}\n");
  } else {
    printf("workload stack  n %ld  t %g  threads 1  path c  layout planar\n", n, t);
    printf("layer-evals/s  median %.3e  best %.3e  (%ld timed passes)\n", n / median, n / best,
           repeats);
    printf("ns per layer   %.3f\n", median / n * 1e9);
    printf("output GB/s    %.2f\n", bytes / median / 1e9);
    printf("checksum       %.11e\n", sum);
    if (check)
      printf("max error      %.3g points in m41, m42, m43; %.3g relative elsewhere (first 10000 "
             "layers against double)\n",
             worstTranslation, worstOther);
  }
  return checkFailed ? 1 : 0;
}
