// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hist.c - log-linear latency histogram of nanosecond values (layout in hist.h).
 *
 * Counter idx < 2^SUB_BITS holds the value idx exactly. Above that, counter
 * idx = (b << HALF_BITS) + (v >> b) covers the 2^b values sharing v >> b, where
 * b = msb(v) - HALF_BITS, so its lowest value is (idx - (b << HALF_BITS)) << b.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/jsonutil.h"

#define HALF_BITS	(RTM_HIST_SUB_BITS - 1)
#define EXACT_COUNTS	(1u << RTM_HIST_SUB_BITS)
#define TOP_IDX		(RTM_HIST_NCOUNTS - 1)
#define U128_MAX	(~(u128)0)

typedef unsigned __int128 u128;

static inline uint64_t idx_lo(unsigned int idx)
{
	unsigned int b;

	if (idx < EXACT_COUNTS)
		return idx;
	b = (idx >> HALF_BITS) - 1;
	return (uint64_t)(idx - (b << HALF_BITS)) << b;
}

static inline uint64_t idx_hi(unsigned int idx)
{
	if (idx < EXACT_COUNTS)
		return idx;
	return idx_lo(idx) + (UINT64_C(1) << ((idx >> HALF_BITS) - 1)) - 1;
}

/**
 * rtm_hist_index_lo - lowest value counted by counter @idx
 * @idx: counter index; indexes past the end are taken as the top counter
 */
uint64_t rtm_hist_index_lo(unsigned int idx)
{
	return idx_lo(idx > TOP_IDX ? TOP_IDX : idx);
}

/**
 * rtm_hist_index_hi - highest value (<= RTM_HIST_MAX_NS) counted by counter @idx
 * @idx: counter index; indexes past the end are taken as the top counter
 */
uint64_t rtm_hist_index_hi(unsigned int idx)
{
	return idx_hi(idx > TOP_IDX ? TOP_IDX : idx);
}

/**
 * rtm_hist_reset - empty a histogram
 * @h: the histogram
 */
void rtm_hist_reset(struct rtm_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/**
 * rtm_hist_alloc - allocate an empty histogram
 *
 * The memory is cache-line aligned and written once, so recording never takes
 * a page fault. Returns NULL with errno set when out of memory.
 */
struct rtm_hist *rtm_hist_alloc(void)
{
	size_t size = (sizeof(struct rtm_hist) + 63) & ~(size_t)63;
	struct rtm_hist *h = aligned_alloc(64, size);

	if (!h)
		return NULL;
	rtm_hist_reset(h);
	return h;
}

/**
 * rtm_hist_free - release a histogram from rtm_hist_alloc()
 * @h: the histogram, may be NULL
 */
void rtm_hist_free(struct rtm_hist *h)
{
	free(h);
}

/*
 * The counters that can be non-zero, [*lo, *hi): those from min_ns's to
 * max_ns's (every writer keeps its counts between them; hist.h). Empty when
 * nothing was recorded.
 */
static inline void hist_span(const struct rtm_hist *h, unsigned int *lo, unsigned int *hi)
{
	if (!h->count) {
		*lo = *hi = 0;
		return;
	}
	*lo = rtm_hist_index(h->min_ns > RTM_HIST_MAX_NS ? RTM_HIST_MAX_NS : h->min_ns);
	*hi = rtm_hist_index(h->max_ns > RTM_HIST_MAX_NS ? RTM_HIST_MAX_NS : h->max_ns) + 1;
}

/* Zero the counters of @h in [@lo, @hi) that lie outside [@keep_lo, @keep_hi). */
static void hist_clear_outside(struct rtm_hist *h, unsigned int lo, unsigned int hi,
			       unsigned int keep_lo, unsigned int keep_hi)
{
	if (keep_lo >= keep_hi) {
		if (lo < hi)
			memset(&h->counts[lo], 0, (hi - lo) * sizeof(h->counts[0]));
		return;
	}
	if (lo < keep_lo)
		memset(&h->counts[lo], 0, ((hi < keep_lo ? hi : keep_lo) - lo) *
		       sizeof(h->counts[0]));
	if (hi > keep_hi) {
		lo = lo > keep_hi ? lo : keep_hi;
		memset(&h->counts[lo], 0, (hi - lo) * sizeof(h->counts[0]));
	}
}

/**
 * rtm_hist_copy - snapshot @src into @dst
 * @dst: destination
 * @src: source
 *
 * Only the counters between the two histograms' min and max are touched: a
 * snapshot of a live histogram reads a few kilobytes of the 72 it spans.
 */
void rtm_hist_copy(struct rtm_hist *dst, const struct rtm_hist *src)
{
	unsigned int dlo, dhi, slo, shi;

	if (dst == src)
		return;
	hist_span(dst, &dlo, &dhi);
	/*
	 * The span from the min and max as copied: under a writer (a snapshot
	 * retried under a sequence count) the counters copied are those @dst's
	 * header claims, so a later copy into @dst clears the right ones.
	 */
	memcpy(dst, src, offsetof(struct rtm_hist, counts));
	hist_span(dst, &slo, &shi);
	hist_clear_outside(dst, dlo, dhi, slo, shi);
	if (slo < shi)
		memcpy(&dst->counts[slo], &src->counts[slo], (shi - slo) * sizeof(src->counts[0]));
}

static inline void hist_minmax(struct rtm_hist *h, uint64_t lo_ns, uint64_t hi_ns)
{
	if (lo_ns < h->min_ns)
		h->min_ns = lo_ns;
	if (hi_ns > h->max_ns)
		h->max_ns = hi_ns;
}

/**
 * rtm_hist_record_n - count @n samples of the value @v_ns
 * @h: the histogram
 * @v_ns: the value
 * @n: how many samples (0 changes nothing)
 */
void rtm_hist_record_n(struct rtm_hist *h, uint64_t v_ns, uint64_t n)
{
	bool sat = v_ns > RTM_HIST_MAX_NS;

	if (!n)
		return;
	if (sat)
		h->saturated += n;
	h->counts[rtm_hist_index(sat ? RTM_HIST_MAX_NS : v_ns)] += n;
	h->count += n;
	h->sum_ns += v_ns * n;
	h->sum_sq += (u128)v_ns * v_ns * n;
	hist_minmax(h, v_ns, v_ns);
}

/*
 * Sum and sum of squares of the arithmetic progression v, v - i, ..., v - k*i,
 * exact modulo 2^64 and 2^128 (as a loop of additions would wrap). The
 * divisions by 2 and 6 are done on the factors before any product can wrap.
 */
static void ap_sums(uint64_t v, uint64_t i, uint64_t k, uint64_t *sum, u128 *sum_sq)
{
	u128 a = k, b = (u128)k + 1, c = 2 * (u128)k + 1;
	u128 s1 = (a * b) >> 1;		/* sum of 0..k: exact, a * b < 2^128 */
	u128 s2;			/* sum of squares of 0..k, mod 2^128 */

	if (a % 2 == 0)
		a /= 2;
	else
		b /= 2;
	if (a % 3 == 0)
		a /= 3;
	else if (b % 3 == 0)
		b /= 3;
	else
		c /= 3;
	s2 = a * b * c;

	*sum = (uint64_t)(((u128)k + 1) * v - (u128)i * s1);
	*sum_sq = ((u128)k + 1) * ((u128)v * v) - 2 * ((u128)v * i) * s1 + ((u128)i * i) * s2;
}

/**
 * rtm_hist_record_corrected - coordinated-omission corrected record
 * @h: the corrected histogram
 * @v_ns: measured latency
 * @interval_ns: expected interval between samples (0: plain record)
 *
 * Records v, v - i, v - 2i, ... down to the last value >= i. Each counter's share
 * of the progression is counted by division, so the cost is bounded by the
 * number of counters between i and v (at most RTM_HIST_NCOUNTS), not by v / i.
 */
void rtm_hist_record_corrected(struct rtm_hist *h, uint64_t v_ns, uint64_t interval_ns)
{
	uint64_t nterms, k = 0, sum;
	u128 sum_sq;

	/* fast path without a division: fewer than two terms */
	if (v_ns < interval_ns || v_ns - interval_ns < interval_ns || !interval_ns) {
		rtm_hist_record(h, v_ns);
		return;
	}
	nterms = v_ns / interval_ns;

	ap_sums(v_ns, interval_ns, nterms - 1, &sum, &sum_sq);
	h->count += nterms;
	h->sum_ns += sum;
	h->sum_sq += sum_sq;
	hist_minmax(h, v_ns - (nterms - 1) * interval_ns, v_ns);

	if (v_ns > RTM_HIST_MAX_NS) {
		/* terms v - k*i > MAX_NS: k <= (v - MAX_NS - 1) / i */
		k = (v_ns - RTM_HIST_MAX_NS - 1) / interval_ns + 1;
		if (k > nterms)
			k = nterms;
		h->saturated += k;
		h->counts[TOP_IDX] += k;
	}
	while (k < nterms) {
		uint64_t t = v_ns - k * interval_ns;
		unsigned int idx = rtm_hist_index(t);
		uint64_t above = t - idx_lo(idx);
		/* terms t, t - i, ... that stay >= the counter's lowest value */
		uint64_t n = above < interval_ns ? 1 : above / interval_ns + 1;

		if (n > nterms - k)
			n = nterms - k;
		h->counts[idx] += n;
		k += n;
	}
}

/**
 * rtm_hist_merge - add every sample of @src to @dst
 * @dst: destination
 * @src: source (may be @dst)
 */
void rtm_hist_merge(struct rtm_hist *dst, const struct rtm_hist *src)
{
	unsigned int i;

	for (i = 0; i < RTM_HIST_NCOUNTS; i++)
		dst->counts[i] += src->counts[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sum_sq += src->sum_sq;
	dst->saturated += src->saturated;
	if (src->count)
		hist_minmax(dst, src->min_ns, src->max_ns);
}

/**
 * rtm_hist_diff - samples recorded between two snapshots
 * @dst: result (may be @later or @earlier)
 * @later: the later snapshot
 * @earlier: the earlier snapshot of the same histogram
 *
 * Counts and sums are exact; min/max are the bounds of the first and last
 * non-empty buckets, clamped to @later's min/max. Returns 0, or -EINVAL (and
 * leaves @dst untouched) when a counter of @earlier exceeds @later's.
 */
int rtm_hist_diff(struct rtm_hist *dst, const struct rtm_hist *later,
		  const struct rtm_hist *earlier)
{
	uint64_t lmin = later->min_ns, lmax = later->max_ns;
	unsigned int i, first = RTM_HIST_NCOUNTS, last = 0, lo, hi, dlo, dhi;

	if (earlier->count > later->count || earlier->saturated > later->saturated ||
	    earlier->sum_ns > later->sum_ns || earlier->sum_sq > later->sum_sq)
		return -EINVAL;
	if (earlier->count && (earlier->min_ns < lmin || earlier->max_ns > lmax))
		return -EINVAL;
	/* @earlier's counters lie within @later's span (its min and max do) */
	hist_span(later, &lo, &hi);
	for (i = lo; i < hi; i++)
		if (earlier->counts[i] > later->counts[i])
			return -EINVAL;

	if (!earlier->count) {
		rtm_hist_copy(dst, later);
		return 0;
	}
	hist_span(dst, &dlo, &dhi);
	if (dst != later && dst != earlier)
		hist_clear_outside(dst, dlo, dhi, lo, hi);
	for (i = lo; i < hi; i++) {
		dst->counts[i] = later->counts[i] - earlier->counts[i];
		if (dst->counts[i]) {
			if (first == RTM_HIST_NCOUNTS)
				first = i;
			last = i;
		}
	}
	dst->count = later->count - earlier->count;
	dst->saturated = later->saturated - earlier->saturated;
	dst->sum_ns = later->sum_ns - earlier->sum_ns;
	dst->sum_sq = later->sum_sq - earlier->sum_sq;
	if (first == RTM_HIST_NCOUNTS) {
		dst->min_ns = UINT64_MAX;
		dst->max_ns = 0;
		return 0;
	}
	dst->min_ns = idx_lo(first);
	if (dst->saturated && dst->saturated == dst->counts[TOP_IDX] && first == TOP_IDX)
		dst->min_ns = RTM_HIST_MAX_NS + 1;
	dst->max_ns = dst->saturated ? lmax : idx_hi(last);
	if (dst->min_ns < lmin)
		dst->min_ns = lmin;
	if (dst->max_ns > lmax)
		dst->max_ns = lmax;
	return 0;
}

/**
 * rtm_hist_diff_max - the max_ns rtm_hist_diff() would give, without the difference
 * @later: the later snapshot
 * @earlier: an earlier snapshot of the same histogram (its counters are not checked)
 *
 * Scans down from the top of @later until a counter differs, so it costs the
 * counters above the new maximum, not all of them. 0 when nothing was added.
 */
uint64_t rtm_hist_diff_max(const struct rtm_hist *later, const struct rtm_hist *earlier)
{
	enum { BLOCK = 32 };
	unsigned int lo, hi, i;

	if (later->count <= earlier->count)
		return 0;
	if (later->saturated > earlier->saturated || later->max_ns > earlier->max_ns)
		return later->max_ns;	/* its bucket's top, clamped to max, is max */
	hist_span(later, &lo, &hi);
	/* whole blocks compared by memcmp (vectorised), the counters of the block that differs */
	while (hi - lo >= BLOCK && !memcmp(&later->counts[hi - BLOCK], &earlier->counts[hi - BLOCK],
					   BLOCK * sizeof(later->counts[0])))
		hi -= BLOCK;
	for (i = hi; i-- > lo;)
		if (later->counts[i] != earlier->counts[i])
			return idx_hi(i) < later->max_ns ? idx_hi(i) : later->max_ns;
	return 0;
}

/**
 * rtm_hist_mean - mean of the recorded values in ns (0 when empty)
 * @h: the histogram
 */
double rtm_hist_mean(const struct rtm_hist *h)
{
	if (!h->count)
		return 0;
	return (double)(h->sum_ns / h->count) + (double)(h->sum_ns % h->count) / h->count;
}

/**
 * rtm_hist_stddev - population standard deviation in ns (0 when empty)
 * @h: the histogram
 *
 * With q = floor(mean) and r = sum mod count, sum((x - q)^2) is an exact
 * integer, so the variance is computed without catastrophic cancellation.
 */
double rtm_hist_stddev(const struct rtm_hist *h)
{
	uint64_t n = h->count, q, r;
	long double var, frac;
	u128 m;

	if (!n)
		return 0;
	q = h->sum_ns / n;
	r = h->sum_ns % n;
	m = h->sum_sq - 2 * (u128)q * h->sum_ns + (u128)q * q * n;
	frac = (long double)r / n;
	var = (long double)m / n - frac * frac;
	return var > 0 ? (double)sqrtl(var) : 0;
}

/* Nearest rank ceil(p/100 * count) in [1, count], p taken to 12 digits. */
static uint64_t hist_rank(uint64_t count, double p)
{
	long double x = (long double)p * count / 100;
	uint64_t r;

	x -= x * 1e-12L;
	if (x <= 1)
		return 1;
	if (x >= count)
		return count;
	r = (uint64_t)x;
	return r < x ? r + 1 : r;
}

/**
 * rtm_hist_rank - the nearest rank of percentile @p among @count samples (see hist.h)
 */
uint64_t rtm_hist_rank(uint64_t count, double p)
{
	return hist_rank(count, p);
}

/* Value reported for @rank, found in counter @idx after @below samples. */
static uint64_t hist_value(const struct rtm_hist *h, unsigned int idx, uint64_t below,
			   uint64_t rank)
{
	uint64_t lo = idx_lo(idx), v;

	if (idx == TOP_IDX && h->saturated) {
		uint64_t unsat = h->counts[idx] > h->saturated ? h->counts[idx] - h->saturated : 0;

		if (rank > below + unsat)
			return h->max_ns;
	}
	v = lo + (idx_hi(idx) - lo) / 2;
	if (v < h->min_ns)
		v = h->min_ns;
	if (v > h->max_ns)
		v = h->max_ns;
	return v;
}

/*
 * Skip whole blocks of counters that end below @rank: the block sums are
 * independent additions, which shortens the serial chain of the scan.
 */
static unsigned int hist_skip(const struct rtm_hist *h, unsigned int idx, uint64_t *below,
			      uint64_t rank)
{
	enum { BLOCK = 32 };
	uint64_t b = *below;

	while (idx + BLOCK <= RTM_HIST_NCOUNTS) {
		const uint64_t *c = &h->counts[idx];
		uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

		for (unsigned int k = 0; k < BLOCK; k += 4) {
			s0 += c[k];
			s1 += c[k + 1];
			s2 += c[k + 2];
			s3 += c[k + 3];
		}
		s0 += s1 + s2 + s3;
		if (b + s0 >= rank)
			break;
		b += s0;
		idx += BLOCK;
	}
	*below = b;
	return idx;
}

/**
 * rtm_hist_percentiles - several percentiles in one pass over the counters
 * @h: the histogram
 * @ps: percentiles (0..100), best ascending (a descending one restarts the scan)
 * @n: number of percentiles
 * @out: the values, as rtm_hist_percentile() gives them
 */
void rtm_hist_percentiles(const struct rtm_hist *h, const double *ps, int n, uint64_t *out)
{
	unsigned int idx, lo, hi;
	uint64_t below = 0, rank;
	int j;

	hist_span(h, &lo, &hi);	/* the counters below min's are empty */
	idx = lo;

	for (j = 0; j < n; j++) {
		double p = ps[j];

		if (!h->count) {
			out[j] = 0;
			continue;
		}
		if (!(p > 0)) {
			out[j] = h->min_ns;
			continue;
		}
		if (p >= 100) {
			out[j] = h->max_ns;
			continue;
		}
		rank = hist_rank(h->count, p);
		if (rank <= below) {
			idx = lo;
			below = 0;
		}
		idx = hist_skip(h, idx, &below, rank);
		while (idx < RTM_HIST_NCOUNTS && below + h->counts[idx] < rank)
			below += h->counts[idx++];
		if (idx == RTM_HIST_NCOUNTS) {
			/* counters add up to less than count: inconsistent */
			out[j] = h->max_ns;
			idx = lo;
			below = 0;
			continue;
		}
		out[j] = hist_value(h, idx, below, rank);
	}
}

/**
 * rtm_hist_percentile - value at percentile @p (see hist.h)
 * @h: the histogram
 * @p: percentile, 0..100
 */
uint64_t rtm_hist_percentile(const struct rtm_hist *h, double p)
{
	uint64_t v;

	rtm_hist_percentiles(h, &p, 1, &v);
	return v;
}

/**
 * rtm_hist_next - iterate over non-empty buckets
 * @h: the histogram
 * @pos: iterator state, start with 0
 * @b: filled with the next non-empty bucket
 *
 * Returns true while there are buckets left.
 */
bool rtm_hist_next(const struct rtm_hist *h, unsigned int *pos, struct rtm_hist_bucket *b)
{
	unsigned int i;

	for (i = *pos; i < RTM_HIST_NCOUNTS; i++) {
		if (!h->counts[i])
			continue;
		b->lo_ns = idx_lo(i);
		b->hi_ns = idx_hi(i);
		b->count = h->counts[i];
		if (i == TOP_IDX && h->saturated && h->max_ns > b->hi_ns)
			b->hi_ns = h->max_ns;
		*pos = i + 1;
		return true;
	}
	*pos = RTM_HIST_NCOUNTS;
	return false;
}

/* ---------------------------------------------------------------- JSON */

/**
 * rtm_hist_to_json - the JSON form of a histogram (see hist.h)
 * @h: the histogram
 *
 * Returns a new reference, or NULL when out of memory.
 */
json_t *rtm_hist_to_json(const struct rtm_hist *h)
{
	json_t *obj = json_object(), *buckets = json_array();
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	char sq[48];
	int bad = 0;

	if (!obj || !buckets) {
		json_decref(obj);
		json_decref(buckets);
		return NULL;
	}
	rtm_dec_format(h->sum_sq, sq, sizeof(sq));
	bad |= json_object_set_new(obj, "count", rtm_json_u64(h->count));
	bad |= json_object_set_new(obj, "min_ns", h->count ? rtm_json_u64(h->min_ns) : json_null());
	bad |= json_object_set_new(obj, "max_ns", rtm_json_u64(h->max_ns));
	bad |= json_object_set_new(obj, "sum_ns", rtm_json_u64(h->sum_ns));
	bad |= json_object_set_new(obj, "sum_sq", json_string(sq));
	bad |= json_object_set_new(obj, "saturated", rtm_json_u64(h->saturated));
	bad |= json_object_set_new(obj, "sub_bits", json_integer(RTM_HIST_SUB_BITS));
	while (!bad && rtm_hist_next(h, &pos, &b)) {
		json_t *pair = json_array();

		bad |= json_array_append_new(pair, rtm_json_u64(b.lo_ns));
		bad |= json_array_append_new(pair, rtm_json_u64(b.count));
		bad |= json_array_append_new(buckets, pair);
	}
	bad |= json_object_set_new(obj, "buckets", buckets);
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

#define JERR(...) rtm_error_set(err, "histogram JSON: " __VA_ARGS__)

static int parse_buckets(struct rtm_hist *h, const json_t *arr, uint64_t *total,
			 struct rtm_error *err)
{
	unsigned int prev = 0;
	size_t i;

	if (!arr)
		return JERR("\"buckets\" is missing");
	if (!json_is_array(arr))
		return JERR("\"buckets\" is not an array of [lo_ns, count] pairs");
	*total = 0;
	for (i = 0; i < json_array_size(arr); i++) {
		const json_t *pair = json_array_get(arr, i);
		uint64_t lo, n;
		unsigned int idx;

		if (!json_is_array(pair) || json_array_size(pair) != 2)
			return JERR("bucket %zu is not a [lo_ns, count] pair", i);
		if (rtm_json_get_u64(json_array_get(pair, 0), &lo) ||
		    rtm_json_get_u64(json_array_get(pair, 1), &n))
			return JERR("bucket %zu: lo_ns or count is not a non-negative integer",
				    i);
		if (lo > RTM_HIST_MAX_NS)
			return JERR("bucket %zu: lo_ns %" PRIu64 " is beyond the top bucket",
				    i, lo);
		idx = rtm_hist_index(lo);
		if (idx_lo(idx) != lo)
			return JERR("bucket %zu: lo_ns %" PRIu64
				    " is not a bucket boundary (the bucket starts at %" PRIu64 ")",
				    i, lo, idx_lo(idx));
		if (i && idx <= prev)
			return JERR("bucket %zu: lo_ns %" PRIu64 " is not above the previous one",
				    i, lo);
		if (!n)
			return JERR("bucket %zu: count is 0 (only non-empty buckets are listed)",
				    i);
		if (*total + n < n)
			return JERR("bucket counts overflow 64 bits");
		*total += n;
		h->counts[idx] = n;
		prev = idx;
	}
	return 0;
}

/* min/max/sums against the buckets; counts already parsed and adding up */
static int check_summary(const struct rtm_hist *h, struct rtm_error *err)
{
	uint64_t unsat = h->count - h->saturated;
	unsigned int first = 0, last = TOP_IDX;
	u128 mm;

	if (h->min_ns > h->max_ns)
		return JERR("min_ns %" PRIu64 " is above max_ns %" PRIu64, h->min_ns, h->max_ns);
	while (!h->counts[first])
		first++;
	while (!h->counts[last])
		last--;
	if (h->min_ns <= RTM_HIST_MAX_NS ? (!unsat || rtm_hist_index(h->min_ns) != first) : unsat)
		return JERR("min_ns %" PRIu64 " is not in the lowest non-empty bucket", h->min_ns);
	if (h->max_ns <= RTM_HIST_MAX_NS ? (h->saturated || rtm_hist_index(h->max_ns) != last)
					 : !h->saturated)
		return JERR("max_ns %" PRIu64 " does not match the highest bucket or \"saturated\"",
			    h->max_ns);
	if ((u128)h->count * h->max_ns <= UINT64_MAX &&
	    (h->sum_ns < h->count * h->min_ns || h->sum_ns > h->count * h->max_ns))
		return JERR("sum_ns %" PRIu64 " is not between count * min_ns and count * max_ns",
			    h->sum_ns);
	mm = (u128)h->max_ns * h->max_ns;
	if (mm && h->count <= U128_MAX / mm &&
	    (h->sum_sq < (u128)h->min_ns * h->min_ns * h->count || h->sum_sq > mm * h->count))
		return JERR("sum_sq is not between count * min_ns^2 and count * max_ns^2");
	return 0;
}

static int hist_parse(struct rtm_hist *h, const json_t *obj, struct rtm_error *err)
{
	const json_t *j;
	uint64_t total = 0;
	u128 sq;
	int ret;

	if (!json_is_object(obj))
		return JERR("not an object");
	j = json_object_get(obj, "sub_bits");
	if (!json_is_integer(j))
		return JERR("\"sub_bits\" is missing or not an integer");
	if (json_integer_value(j) != RTM_HIST_SUB_BITS)
		return JERR("sub_bits is %" JSON_INTEGER_FORMAT ", this build reads %d only",
			    json_integer_value(j), RTM_HIST_SUB_BITS);
	ret = rtm_json_get_field(obj, "count", &h->count, "histogram JSON", err);
	if (!ret)
		ret = rtm_json_get_field(obj, "max_ns", &h->max_ns, "histogram JSON", err);
	if (!ret)
		ret = rtm_json_get_field(obj, "sum_ns", &h->sum_ns, "histogram JSON", err);
	if (!ret)
		ret = rtm_json_get_field(obj, "saturated", &h->saturated, "histogram JSON", err);
	if (ret)
		return ret;
	j = json_object_get(obj, "min_ns");
	if (!j)
		return JERR("\"min_ns\" is missing");
	if (json_is_null(j) ? h->count != 0 : rtm_json_get_u64(j, &h->min_ns) || !h->count)
		return JERR("\"min_ns\" must be a non-negative integer, or null when count is 0");
	j = json_object_get(obj, "sum_sq");
	if (!json_is_string(j) || rtm_dec_parse(json_string_value(j), U128_MAX, &sq))
		return JERR("\"sum_sq\" is missing or not a decimal string of at most 128 bits");
	h->sum_sq = sq;

	ret = parse_buckets(h, json_object_get(obj, "buckets"), &total, err);
	if (ret)
		return ret;
	if (total != h->count)
		return JERR("bucket counts add up to %" PRIu64 " but count is %" PRIu64,
			    total, h->count);
	if (h->saturated > h->counts[TOP_IDX])
		return JERR("saturated %" PRIu64 " exceeds the top bucket's count %" PRIu64,
			    h->saturated, h->counts[TOP_IDX]);
	if (!h->count) {
		if (h->max_ns || h->sum_ns || h->sum_sq)
			return JERR("count is 0 but max_ns, sum_ns or sum_sq is not");
		return 0;
	}
	return check_summary(h, err);
}

/**
 * rtm_hist_from_json - read and validate the JSON form (see hist.h)
 * @h: filled in; left empty on error
 * @obj: the JSON object
 * @err: a one-line message on error, may be NULL
 *
 * Returns 0 or -EINVAL.
 */
int rtm_hist_from_json(struct rtm_hist *h, const json_t *obj, struct rtm_error *err)
{
	int ret;

	rtm_hist_reset(h);
	ret = hist_parse(h, obj, err);
	if (ret)
		rtm_hist_reset(h);
	return ret;
}

uint64_t rtm_hist_bucket_value(const struct rtm_hist *h, const struct rtm_hist_bucket *b)
{
	uint64_t mid = b->lo_ns + (b->hi_ns - b->lo_ns) / 2;

	if (mid < h->min_ns)
		mid = h->min_ns;
	if (mid > h->max_ns)
		mid = h->max_ns;
	return mid;
}
