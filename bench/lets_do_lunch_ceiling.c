// Let's Do Lunch: a C port of the game, the greedy baseline and HARD, for measurements only
// (bench/lets_do_lunch_ceiling.py compiles and drives it; it is not part of the product).
// It plays exactly as shared_rules does, tie-breaks and dice included (the Python bench checks
// that the two agree game for game), about 50 times faster, so it can play 40,000 games or
// thousands of rollouts per position where the Python engine plays a few hundred.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct { uint32_t s; } Rng;
static uint32_t nx(Rng *r) { uint32_t x = r->s; x ^= x << 13; x ^= x >> 17; x ^= x << 5; r->s = x; return x; }
static void seed(Rng *r, uint64_t sd) { uint32_t s = (uint32_t)(sd & 0xFFFFFFFFu); s ^= 0x9E3779B9u; r->s = s ? s : 0x9E3779B9u; for (int i = 0; i < 4; i++) nx(r); }
static int below(Rng *r, int n) { uint64_t lim = 4294967296ULL - (4294967296ULL % n); for (;;) { uint32_t x = nx(r); if (x < lim) return x % n; } }
static int d3(Rng *r) { return 1 + below(r, 3); }

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
#define RIVER 3

static int eat(const uint8_t *c, int i, int me, int *out) {
  int opp = 3 - me, x0 = i % 7, y0 = i / 7, n = 0;
  int near = c[y0 ? i - 7 : i + 42] == opp || c[y0 < 6 ? i + 7 : x0] == opp;
  if (!near && x0 > 0) near = c[i - 1] == opp || (y0 > 0 && c[i - 8] == opp) || (y0 < 6 && c[i + 6] == opp);
  if (!near && x0 < 6) near = c[i + 1] == opp || (y0 > 0 && c[i - 6] == opp) || (y0 < 6 && c[i + 8] == opp);
  if (!near) return 0;
  for (int d = 0; d < 8; d++) {
    int dx = DX[d], dy = DY[d], x = x0 + dx, y = y0 + dy, run[8], rn = 0;
    for (;;) {
      if (dx == 0) { y = ((y % 7) + 7) % 7; if (y == y0) break; }
      else if (x < 0 || x > 6 || y < 0 || y > 6) break;
      int j = y * 7 + x, v = c[j];
      if (v == opp) { if (x != RIVER) run[rn++] = j; }
      else { if (v == me && rn) { for (int k = 0; k < rn; k++) out[n++] = run[k]; } break; }
      x += dx; y += dy;
    }
  }
  return n;
}
static int eatn(const uint8_t *c, int i, int me) { int o[64]; return eat(c, i, me, o); }

static const int OC[8] = {5, 7, -1, 4, 8, 3, 6, 9};
static const int OA[8] = {0, 0, 0, 0, 0, 1, 1, 1};
static const int OW[8] = {6, 6, 6, 3, 3, 1, 1, 1};
static const int CW[7] = {1, 3, 6, 1, 6, 3, 1};
#define WIN 100000

static int fdiv27(int t) { return t >= 0 ? t / 27 : -((-t + 26) / 27); }

static void exposure(const uint8_t *c, int *t1o, int *t2o) {
  int t1 = 0, t2 = 0;
  static const int XS[6] = {0, 1, 2, 4, 5, 6};
  for (int k = 0; k < 6; k++) {
    int x = XS[k], wv = CW[x], sides = x > 0 && x < 6, wl = 0, wr = 0;
    if (sides) { wl = CW[x - 1]; wr = CW[x + 1]; }
    for (int y = 0; y < 7; y++) {
      int i = y * 7 + x, s = c[i];
      if (!s) continue;
      int o = 3 - s, up = y ? c[i - 7] : c[i + 42], dn = y < 6 ? c[i + 7] : c[x], t = 0;
      if ((up == o && !dn) || (dn == o && !up)) t = wv;
      if (sides) {
        int l = c[i - 1], r = c[i + 1];
        if (r == o && !l) t += wl; else if (l == o && !r) t += wr;
        if (y > 0 && y < 6) {
          int ul = c[i - 8], ur = c[i - 6], dl = c[i + 6], dr = c[i + 8];
          if (ur == o && !dl) t += wl; else if (dl == o && !ur) t += wr;
          if (dr == o && !ul) t += wl; else if (ul == o && !dr) t += wr;
        }
      }
      if (s == 1) t1 += t; else t2 += t;
    }
  }
  *t1o = t1; *t2o = t2;
}
static int exposure_of(const uint8_t *c, int side) { int a, b; exposure(c, &a, &b); return side == 1 ? a : b; }

static int threats(const uint8_t *c, int side) {
  int total = 0;
  for (int x = 0; x < 7; x++) {
    int best = 0;
    for (int e = x; e < 49; e += 7) if (!c[e]) { int n = eatn(c, e, side); if (n > best) best = n; }
    total += CW[x] * best;
  }
  return total;
}

typedef struct { uint8_t c[49]; int h[2]; int me; } S;

static int material(S *s) {
  int me = s->me, opp = 1 - me;
  if (s->h[me] == 0) return WIN + s->h[opp];
  if (s->h[opp] == 0) return -WIN - s->h[me];
  return 100 * (s->h[opp] - s->h[me]);
}
static int chance(S *s, int mover, int depth);
static int after(S *s, int mover, int i, int again, int depth) {
  int side = mover + 1, e[64];
  s->c[i] = side;
  int n = eat(s->c, i, side, e);
  for (int k = 0; k < n; k++) s->c[e[k]] = 0;
  s->h[mover]--; s->h[1 - mover] += n;
  int v = s->h[mover] == 0 ? material(s) : chance(s, again ? mover : 1 - mover, depth - 1);
  s->h[mover]++; s->h[1 - mover] -= n;
  for (int k = 0; k < n; k++) s->c[e[k]] = 2 - mover;
  s->c[i] = 0;
  return v;
}
static int decide(S *s, int mover, int col, int again, int depth) {
  int x = col - 3;
  if (depth == 1) {
    int most = -1;
    for (int i = x; i < 49; i += 7) if (!s->c[i]) { int n = eatn(s->c, i, mover + 1); if (n > most) most = n; }
    if (most >= 0) {
      s->h[mover]--; s->h[1 - mover] += most;
      int v = material(s);
      s->h[mover]++; s->h[1 - mover] -= most;
      return v;
    }
    return chance(s, again ? mover : 1 - mover, 0);
  }
  int found = 0, best = 0, mx = mover == s->me;
  for (int y = 0; y < 7; y++) {
    int i = y * 7 + x;
    if (s->c[i]) continue;
    int v = after(s, mover, i, again, depth);
    if (!found || (mx ? v > best : v < best)) { best = v; found = 1; }
  }
  if (!found) return chance(s, again ? mover : 1 - mover, depth - 1);
  return best;
}
static int chance(S *s, int mover, int depth) {
  if (depth == 0) return material(s);
  int total = 0;
  for (int k = 0; k < 8; k++) {
    int v = OC[k] < 0 ? chance(s, 1 - mover, depth - 1) : decide(s, mover, OC[k], OA[k], depth);
    total += OW[k] * v;
  }
  return fdiv27(total);
}

// HARD's positional term, as shared_rules/lets_do_lunch_ai.py (H_* there)
static int H_MINE = 4, H_THEIRS = 1, H_ENEMY_THREATS = 2, H_OWN_NEIGHBOURS = 2, H_EDGE_ROW = 4;
static int neighbours(const uint8_t *c, int i, int side) {
  int x = i % 7, y = i / 7, n = 0;
  for (int d = 0; d < 8; d++) {
    int xx = x + DX[d], yy = y + DY[d];
    if (DX[d] == 0) yy = (yy + 7) % 7; else if (xx < 0 || xx > 6 || yy < 0 || yy > 6) continue;
    n += c[yy * 7 + xx] == side;
  }
  return n;
}
static int positional_after(S *s, int i) {
  int me = s->me, side = me + 1, e[64];
  s->c[i] = side;
  int n = eat(s->c, i, side, e);
  for (int k = 0; k < n; k++) s->c[e[k]] = 0;
  int v = 0;
  if (s->h[me] > 1) {
    v = H_MINE * threats(s->c, side) - H_THEIRS * exposure_of(s->c, side)
        - H_ENEMY_THREATS * threats(s->c, 3 - side) - H_OWN_NEIGHBOURS * neighbours(s->c, i, side);
    if (i / 7 == 0 || i / 7 == 6) v += H_EDGE_ROW;
  }
  for (int k = 0; k < n; k++) s->c[e[k]] = 3 - side;
  s->c[i] = 0;
  return v;
}

// the game state
typedef struct { uint8_t c[49]; int h[2]; int player; int col; int again; } G;

typedef int (*Policy)(G *g, Rng *tie, void *ctx);

static int pick_best(int *rows, int *vals, int n, Rng *tie) {
  int top = vals[0];
  for (int k = 1; k < n; k++) if (vals[k] > top) top = vals[k];
  int opts[7], m = 0;
  for (int k = 0; k < n; k++) if (vals[k] == top) opts[m++] = rows[k];
  if (m == 1 || !tie) return opts[0];
  return opts[below(tie, m)];
}
// returns the index (0..48) chosen
static int greedy(G *g, Rng *tie, void *ctx) {
  (void)ctx;
  int rows[7], vals[7], n = 0, x = g->col - 3;
  for (int y = 0; y < 7; y++) { int i = y * 7 + x; if (g->c[i]) continue; g->c[i] = g->player + 1; vals[n] = eatn(g->c, i, g->player + 1); g->c[i] = 0; rows[n++] = i; }
  return pick_best(rows, vals, n, tie);
}
static int hard_scores(G *g, int *rows, int *vals) {
  S s; memcpy(s.c, g->c, 49); s.h[0] = g->h[0]; s.h[1] = g->h[1]; s.me = g->player;
  int n = 0, x = g->col - 3;
  for (int y = 0; y < 7; y++) {
    int i = y * 7 + x; if (g->c[i]) continue;
    vals[n] = after(&s, g->player, i, g->again, 2) + positional_after(&s, i);
    rows[n++] = i;
  }
  return n;
}
static long hard_choices = 0;  // HARD's decisions with more than one placement
static int hard(G *g, Rng *tie, void *ctx) {
  (void)ctx; int rows[7], vals[7];
  int n = hard_scores(g, rows, vals);
  hard_choices += n > 1;
  return pick_best(rows, vals, n, tie);
}

static int colfull(G *g, int col) { for (int y = 0; y < 7; y++) if (!g->c[y * 7 + col - 3]) return 0; return 1; }
static void rolld(Rng *r, int *col, int *again) {
  int a = d3(r), b = d3(r), c = d3(r);
  int lo = a < b ? (a < c ? a : c) : (b < c ? b : c), hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if (lo == 1 && hi == 3 && a + b + c == 6) { *col = 0; *again = 0; return; }
  *col = a + b + c; *again = lo == hi;
}
static void place(G *g, int i) {
  int p = g->player, e[64];
  g->c[i] = p + 1;
  int n = eat(g->c, i, p + 1, e);
  for (int k = 0; k < n; k++) g->c[e[k]] = 0;
  g->h[p]--; g->h[1 - p] += n;
}
// Play from g (phase: player to roll, or g->col>0 meaning player must place) to the end.
// Returns the winner.
static int playout(G *g, Rng *dice, Rng *tie, Policy pol[2], void *ctx[2]) {
  for (;;) {
    if (g->col) {
      int i = pol[g->player](g, tie, ctx[g->player]);
      place(g, i);
      int p = g->player;
      if (g->h[p] == 0) return p;
      if (!g->again) g->player = 1 - p;
      g->col = 0; g->again = 0;
      continue;
    }
    int col, again; rolld(dice, &col, &again);
    if (!col) { g->player = 1 - g->player; continue; }
    if (colfull(g, col)) { if (!again) g->player = 1 - g->player; continue; }
    g->col = col; g->again = again;
  }
}
static int sumroll(Rng *r) { return d3(r) + d3(r) + d3(r); }
static void newgame(G *g, Rng *dice) {
  memset(g, 0, sizeof *g); g->h[0] = g->h[1] = 12;
  for (;;) { int a = sumroll(dice), b = sumroll(dice); if (a != b) { g->player = a > b ? 0 : 1; return; } }
}

static double eval_cand(G *g, int cand, int N, uint64_t base) {
  int me = g->player, w = 0; Policy pol[2]; void *cx[2] = {0, 0}; pol[me] = hard; pol[1 - me] = greedy;
  for (int r = 0; r < N; r++) {
    G h = *g; place(&h, cand);
    if (h.h[me] == 0) { w++; continue; }
    if (!h.again) h.player = 1 - me;
    h.col = 0; h.again = 0;
    Rng d, t; seed(&d, base * 2654435761u + r); seed(&t, base * 40503u + 7 * r + 3);
    w += playout(&h, &d, &t, pol, cx) == me;
  }
  return (double)w / N;
}

static void set_weights(int argc, char **argv, int from) {
  int *w[5] = {&H_MINE, &H_THEIRS, &H_ENEMY_THREATS, &H_OWN_NEIGHBOURS, &H_EDGE_ROW};
  for (int k = 0; k < 5 && from + k < argc; k++) *w[k] = atoi(argv[from + k]);
}

// rate FIRST GAMES [weights...]: HARD against greedy on seeds FIRST.., as the Python bench plays
// gap FIRST POSITIONS N1 N2 [weights...]: at one HARD decision of each seeded game (the
// (seed % 12)-th with a choice), every candidate is valued by N1 rollouts (HARD vs greedy to the
// end, common dice across candidates); the rollout-best and HARD's own choice are then valued
// again by N2 fresh rollouts. Prints one line per position and the mean gain.
int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "rate") == 0) {
    int first = atoi(argv[2]), games = atoi(argv[3]), wins = 0, starts = 0;
    set_weights(argc, argv, 4);
    for (int sd = first; sd < first + games; sd++) {
      int hp = sd % 2; G g; Rng dice, tie; seed(&dice, sd); seed(&tie, (uint64_t)sd * 7 + 1);
      newgame(&g, &dice);
      starts += g.player == hp;
      Policy pol[2]; void *cx[2] = {0, 0}; pol[hp] = hard; pol[1 - hp] = greedy;
      wins += playout(&g, &dice, &tie, pol, cx) == hp;
    }
    printf("wins %d games %d starts %d choices %ld\n", wins, games, starts, hard_choices);
    return 0;
  }
  if (argc >= 6 && strcmp(argv[1], "gap") == 0) {
    int first = atoi(argv[2]), npos = atoi(argv[3]), N1 = atoi(argv[4]), N2 = atoi(argv[5]);
    set_weights(argc, argv, 6);
    int done = 0; double sum = 0; int differ = 0;
    for (int sd = first; done < npos; sd++) {
      int hp = sd % 2; G g; Rng dice, tie; seed(&dice, sd); seed(&tie, (uint64_t)sd * 7 + 1);
      newgame(&g, &dice);
      int dec = 0, target = sd % 12;
      for (;;) {
        if (g.col) {
          if (g.player == hp) {
            int rows[7], vals[7], n = hard_scores(&g, rows, vals);
            if (n > 1 && dec++ == target) {
              int hc = hard(&g, &tie, 0), bc = -1; double best = -1;
              for (int k = 0; k < n; k++) {
                double v = eval_cand(&g, rows[k], N1, (uint64_t)sd * 1000 + 1);
                if (v > best) { best = v; bc = rows[k]; }
              }
              double vb = eval_cand(&g, bc, N2, (uint64_t)sd * 1000 + 2);
              double vh = bc == hc ? vb : eval_cand(&g, hc, N2, (uint64_t)sd * 1000 + 2);
              sum += vb - vh; differ += bc != hc; done++;
              printf("position seed %d choices %d hands %d/%d rollout-best %.4f hard %.4f gain %+.4f\n",
                     sd, n, g.h[hp], g.h[1 - hp], vb, vh, vb - vh);
              fflush(stdout);
              break;
            }
            place(&g, hard(&g, &tie, 0));
          } else place(&g, greedy(&g, &tie, 0));
          int p = g.player;
          if (g.h[p] == 0) break;
          if (!g.again) g.player = 1 - p;
          g.col = 0; g.again = 0;
          continue;
        }
        int col, again; rolld(&dice, &col, &again);
        if (!col) { g.player = 1 - g.player; continue; }
        if (colfull(&g, col)) { if (!again) g.player = 1 - g.player; continue; }
        g.col = col; g.again = again;
      }
    }
    printf("mean gain %.5f over %d positions (choice differs in %d)\n", sum / done, done, differ);
    return 0;
  }
  fprintf(stderr, "usage: rate FIRST GAMES [weights] | gap FIRST POSITIONS N1 N2 [weights]\n");
  return 2;
}
