// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_rec.c - what the storage probe records (probe_io.h): operations and I/O
 * priorities by name, one request into the histograms and the miss list, and
 * their JSON. Pure: the unit tests feed it requests with chosen times.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jsonutil.h"
#include "probe/probe_io.h"

static const char *const op_names[RTM_IO_NOPS] = {
	[RTM_IO_READ] = "read",
	[RTM_IO_WRITE] = "write",
	[RTM_IO_RANDREAD] = "randread",
	[RTM_IO_RANDWRITE] = "randwrite",
	[RTM_IO_FSYNC] = "fsync",
};

const char *rtm_io_op_name(enum rtm_io_op op)
{
	return (unsigned int)op < RTM_IO_NOPS ? op_names[op] : "unknown";
}

bool rtm_io_op_writes(enum rtm_io_op op)
{
	return op == RTM_IO_WRITE || op == RTM_IO_RANDWRITE || op == RTM_IO_FSYNC;
}

int rtm_io_ops_parse(const char *s, uint8_t *seq, struct rtm_error *err)
{
	const char *p = s;
	int n = 0, k;

	if (!s || !*s)
		return rtm_error_setn(err, -EINVAL, "--op: no operation (use read, write, "
				      "randread, randwrite or fsync, comma-separated)");
	while (*p) {
		size_t len = strcspn(p, ",");

		for (k = 0; k < RTM_IO_NOPS; k++)
			if (len == strlen(op_names[k]) && !strncasecmp(p, op_names[k], len))
				break;
		if (k == RTM_IO_NOPS)
			return rtm_error_setn(err, -EINVAL, "--op: unknown operation '%.*s' (use "
					      "read, write, randread, randwrite or fsync)",
					      (int)len, p);
		if (n == RTM_IO_SEQ_MAX)
			return rtm_error_setn(err, -EINVAL, "--op: more than %d operations",
					      RTM_IO_SEQ_MAX);
		seq[n++] = (uint8_t)k;
		p += len;
		if (*p == ',' && !*++p)
			return rtm_error_setn(err, -EINVAL, "--op: '%s' ends with a comma", s);
	}
	return n;
}

int rtm_io_bytes_parse(const char *s, const char *what, uint64_t *bytes, struct rtm_error *err)
{
	static const struct { const char *suffix; unsigned int shift; } units[] = {
		{ "", 0 }, { "b", 0 }, { "k", 10 }, { "kib", 10 }, { "kb", 10 }, { "m", 20 },
		{ "mib", 20 }, { "mb", 20 }, { "g", 30 }, { "gib", 30 }, { "gb", 30 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		if (v > (UINT64_MAX >> units[i].shift))
			goto bad;
		*bytes = (uint64_t)v << units[i].shift;
		return 0;
	}
bad:
	return rtm_error_setn(err, -EINVAL, "%s: '%s' is not a size (use bytes, or 4k, 64k, 1m, "
			      "1g)", what, s);
}

int rtm_ioprio_parse(const char *s, struct rtm_ioprio *p, struct rtm_error *err)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	char *end;
	long level = 4;

	if (len == 2 && !strncasecmp(s, "rt", 2))
		p->klass = RTM_IOPRIO_RT;
	else if (len == 2 && !strncasecmp(s, "be", 2))
		p->klass = RTM_IOPRIO_BE;
	else if (len == 4 && !strncasecmp(s, "idle", 4) && !colon)
		p->klass = RTM_IOPRIO_IDLE;
	else
		return rtm_error_setn(err, -EINVAL, "--ioprio: '%s' is not rt:N, be:N or idle "
				      "(N from 0, the highest, to 7)", s);
	if (colon) {
		errno = 0;
		level = strtol(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || level < 0 || level > 7)
			return rtm_error_setn(err, -EINVAL, "--ioprio: level '%s' is not 0 to 7",
					      colon + 1);
	}
	p->level = p->klass == RTM_IOPRIO_IDLE ? 0 : (int)level;
	return 0;
}

char *rtm_ioprio_format(const struct rtm_ioprio *p, char *buf, size_t len)
{
	if (p->klass == RTM_IOPRIO_RT || p->klass == RTM_IOPRIO_BE)
		snprintf(buf, len, "%s:%d", p->klass == RTM_IOPRIO_RT ? "rt" : "be", p->level);
	else
		snprintf(buf, len, "%s", p->klass == RTM_IOPRIO_IDLE ? "idle" : "none");
	return buf;
}

int rtm_ioprio_value(const struct rtm_ioprio *p)
{
	return p->klass << 13 | p->level;
}

int rtm_io_rec_init(struct rtm_io_rec *rec, const uint8_t *seq, int nseq, uint64_t deadline_ns,
		    uint32_t max_miss)
{
	int i;

	memset(rec, 0, sizeof(*rec));
	rec->deadline_ns = deadline_ns;
	rec->max_miss = max_miss;
	rec->miss = calloc(max_miss ? max_miss : 1, sizeof(*rec->miss));
	if (!rec->miss)
		return -ENOMEM;
	for (i = 0; i < nseq; i++) {
		struct rtm_io_oprec *o = &rec->ops[seq[i]];

		if (o->latency)
			continue;
		o->latency = rtm_hist_alloc();
		o->service = rtm_hist_alloc();
		o->lateness = rtm_hist_alloc();
		if (!o->latency || !o->service || !o->lateness)
			return -ENOMEM;
	}
	return 0;
}

void rtm_io_rec_release(struct rtm_io_rec *rec)
{
	int k;

	for (k = 0; k < RTM_IO_NOPS; k++) {
		rtm_hist_free(rec->ops[k].latency);
		rtm_hist_free(rec->ops[k].service);
		rtm_hist_free(rec->ops[k].lateness);
	}
	free(rec->miss);
	memset(rec, 0, sizeof(*rec));
}

void rtm_io_rec_add(struct rtm_io_rec *rec, enum rtm_io_op op, uint64_t offset,
		    uint64_t planned_ns, uint64_t issue_ns, uint64_t done_ns, int error)
{
	struct rtm_io_oprec *o = &rec->ops[op];
	uint64_t latency;

	if (error) {
		o->errors++;
		if (!rec->first_error)
			rec->first_error = error;
		return;
	}
	if (issue_ns < planned_ns)	/* issued before the plan: on time */
		issue_ns = planned_ns;
	if (done_ns < issue_ns)
		done_ns = issue_ns;
	latency = done_ns - planned_ns;
	rtm_hist_record(o->latency, latency);
	rtm_hist_record(o->service, done_ns - issue_ns);
	rtm_hist_record(o->lateness, issue_ns - planned_ns);
	o->count++;
	if (!rec->deadline_ns || latency <= rec->deadline_ns)
		return;
	o->misses++;
	rec->misses++;
	if (rec->nmiss == rec->max_miss) {
		rec->miss_dropped++;
		return;
	}
	rec->miss[rec->nmiss++] = (struct rtm_io_miss){
		.planned_ns = planned_ns, .issue_ns = issue_ns, .done_ns = done_ns,
		.offset = offset, .op = (uint8_t)op,
	};
}

json_t *rtm_io_rec_ops_json(const struct rtm_io_rec *rec)
{
	json_t *ops = json_object();
	int k;

	for (k = 0; ops && k < RTM_IO_NOPS; k++) {
		const struct rtm_io_oprec *o = &rec->ops[k];
		json_t *j;

		if (!o->latency)
			continue;
		j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			"count", rtm_json_u64(o->count),
			"misses", rtm_json_u64(o->misses),
			"errors", rtm_json_u64(o->errors),
			"latency", rtm_hist_to_json(o->latency),
			"service", rtm_hist_to_json(o->service),
			"lateness", rtm_hist_to_json(o->lateness));
		if (!j || json_object_set_new(ops, op_names[k], j)) {
			json_decref(ops);
			return NULL;
		}
	}
	return ops;
}

json_t *rtm_io_rec_misses_json(const struct rtm_io_rec *rec, uint64_t start_ns)
{
	json_t *list = json_array();
	uint32_t i;

	for (i = 0; list && i < rec->nmiss; i++) {
		const struct rtm_io_miss *m = &rec->miss[i];

		if (json_array_append_new(list, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			"op", rtm_io_op_name(m->op),
			"time_ns", rtm_json_u64(m->planned_ns > start_ns ?
						m->planned_ns - start_ns : 0),
			"latency_ns", rtm_json_u64(m->done_ns - m->planned_ns),
			"service_ns", rtm_json_u64(m->done_ns - m->issue_ns),
			"lateness_ns", rtm_json_u64(m->issue_ns - m->planned_ns),
			"offset", rtm_json_u64(m->offset),
			"planned_mono_ns", rtm_json_u64(m->planned_ns)))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}
