// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedec.c - raw ftrace pages to rtmeasure events, through libtraceevent.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "tracefs/formats.h"
#include "tracefs/tracedec.h"

#define MAX_FIELDS 8

/*
 * The page header as the kernel writes it (kernel/trace/ring_buffer.c): a u64
 * time stamp, then a long "commit" whose low 27 bits are the bytes of records
 * after the header and whose top bits flag events missed before the page
 * (bit 31) and their count stored after the records (bit 30, a long at
 * data + commit).
 */
#define PAGE_COMMIT_MASK	((1u << 27) - 1)
#define PAGE_MISSED_EVENTS	(1ull << 31)
#define PAGE_MISSED_STORED	(1ull << 30)

/*
 * Each entry on the page starts with a u32: type_len in its low 5 bits, a time
 * delta in the other 27. type_len 1-28: a record of type_len * 4 bytes; 0: a
 * record whose length (plus 4) is in the next u32; the rest carry no record.
 */
#define RB_TYPE_PADDING		29	/* u32 length of the gap after its header word */
#define RB_TYPE_TIME_EXTEND	30	/* u32: bits 27 and up of a delta */
#define RB_TYPE_TIME_STAMP	31	/* u32: bits 27 and up of an absolute time stamp */
#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ull << 56)	/* not in an absolute time stamp */

/* What we interpret: system, event, our type, the fields we read (in order). */
static const struct ev_spec {
	const char *system, *name;
	enum rtm_ev_type type;
	const char *fields[MAX_FIELDS];
} specs[] = {
	{ "sched", "sched_switch", RTM_EV_SCHED_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
	    "next_prio" } },
	{ "sched", "sched_wakeup", RTM_EV_SCHED_WAKEUP, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup_new", RTM_EV_SCHED_WAKEUP,
	  { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_waking", RTM_EV_SCHED_WAKING, { "comm", "pid", "prio", "target_cpu" } },
	{ "irq", "irq_handler_entry", RTM_EV_IRQ_ENTRY, { "irq", "name" } },
	{ "irq", "irq_handler_exit", RTM_EV_IRQ_EXIT, { "irq", "ret" } },
	{ "irq", "softirq_entry", RTM_EV_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq", "softirq_exit", RTM_EV_SOFTIRQ_EXIT, { "vec" } },
	{ "irq", "softirq_raise", RTM_EV_SOFTIRQ_RAISE, { "vec" } },
	{ "timer", "hrtimer_expire_entry", RTM_EV_HRTIMER_ENTRY, { "hrtimer", "function", "now" } },
	{ "timer", "hrtimer_expire_exit", RTM_EV_HRTIMER_EXIT, { "hrtimer" } },
	{ "timer", "hrtimer_start", RTM_EV_HRTIMER_START,
	  { "hrtimer", "function", "expires", "softexpires", "mode" } },
	{ "nmi", "nmi_handler", RTM_EV_NMI, { "handler", "delta_ns" } },
	{ "ftrace", "print", RTM_EV_PRINT, { "ip", "buf" } },
	{ "ftrace", "hwlat", RTM_EV_HWLAT,
	  { "duration", "outer_duration", "nmi_total_ts", "nmi_count", "seqnum", "count",
	    "tv_sec", "tv_nsec" } },
	{ "ftrace", "osnoise", RTM_EV_OSNOISE,
	  { "noise", "runtime", "max_sample", "hw_count", "nmi_count", "irq_count",
	    "softirq_count", "thread_count" } },
	{ "osnoise", "sample_threshold", RTM_EV_OSNOISE_SAMPLE,
	  { "start", "duration", "interference" } },
	{ "ftrace", "timerlat", RTM_EV_TIMERLAT, { "seqnum", "context", "timer_latency" } },
	{ "block", "block_rq_insert", RTM_EV_BLOCK_INSERT,
	  { "dev", "sector", "nr_sector", "ioprio", "rwbs", "comm" } },
	{ "block", "block_rq_issue", RTM_EV_BLOCK_ISSUE,
	  { "dev", "sector", "nr_sector", "ioprio", "rwbs", "comm" } },
	{ "block", "block_rq_complete", RTM_EV_BLOCK_COMPLETE,
	  { "dev", "sector", "nr_sector", "ioprio", "rwbs", "error" } },
	{ "ipi", "ipi_send_cpu", RTM_EV_IPI_SEND, { "cpu" } },
	{ "ipi", "ipi_send_cpumask", RTM_EV_IPI_SEND, { NULL } },
	{ "ipi", "ipi_raise", RTM_EV_IPI_SEND, { NULL } },
};

/*
 * Where a field lies in a record, copied from its format once, so a record's
 * fields are read with direct loads (tep_read_number_field() costs a call and
 * a switch per field).
 */
struct field_at {
	int offset, size;		/* size 0 as a number: reads as 0 (not 1, 2, 4 or 8) */
	bool present;			/* the format has the field; absent ones read as 0 / "" */
	bool dynamic, relative;		/* __data_loc / __rel_loc: a u32 (length << 16 | offset) */
	bool swap;			/* the recording's byte order is not ours */
};

/* Decoding state of one event id. */
struct ev_slot {
	enum rtm_ev_type type;
	const char *system, *name;
	struct field_at f[MAX_FIELDS];
	struct field_at pid;		/* common_pid */
	bool vector;			/* irq_vectors: entry/exit with "vector" */
	int min_size;			/* bytes the fixed fields need: shorter is corrupt */
};

struct rtm_tracedec {
	struct tep_handle *tep;
	int page_size;
	int data_offset;		/* header bytes before the records: 16, or 12 (4-byte long) */
	int long_size;
	bool swap;			/* the recording's byte order is not ours */
	bool big;			/* big-endian recording: the entry header's bits differ */
	int common_size;		/* bytes of the common fields every record starts with */
	struct field_at type;		/* common_type: the event id */
	int max_id;
	struct ev_slot *slots;		/* indexed by event id */
	uint64_t refused;		/* corrupt pages met (rtm_tracedec_refused()) */
	bool kallsyms;			/* kernel symbols loaded, for printing */
};

static const char *const systems[] = {
	"sched", "irq", "irq_vectors", "timer", "ipi", "nmi", "ftrace", "osnoise", "block", NULL,
};

const char *rtm_ev_type_name(enum rtm_ev_type t)
{
	static const char *const names[RTM_EV_NTYPES] = {
		"other", "sched_switch", "sched_wakeup", "sched_waking", "irq_entry", "irq_exit",
		"softirq_entry", "softirq_exit", "softirq_raise", "hrtimer_entry", "hrtimer_exit",
		"vector_entry", "vector_exit", "ipi_send", "nmi", "print", "hrtimer_start",
		"hwlat", "osnoise", "osnoise_sample", "timerlat", "block_insert", "block_issue",
		"block_complete",
	};

	return (unsigned int)t < RTM_EV_NTYPES ? names[t] : "invalid";
}

enum rtm_ev_type rtm_ev_type_of(const char *system, const char *name)
{
	size_t i, n;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (!strcmp(specs[i].system, system) && !strcmp(specs[i].name, name))
			return specs[i].type;
	if (!strcmp(system, "irq_vectors")) {
		n = strlen(name);
		if (n > 6 && !strcmp(name + n - 6, "_entry"))
			return RTM_EV_VECTOR_ENTRY;
		if (n > 5 && !strcmp(name + n - 5, "_exit"))
			return RTM_EV_VECTOR_EXIT;
	}
	return RTM_EV_OTHER;
}

/* End of the last fixed-size field (a dynamic field's fixed part is its offset word). */
static int fixed_size(const struct tep_format_field *f)
{
	int end = 0;

	for (; f; f = f->next)
		if (f->offset >= 0 && f->size >= 0 && f->offset + f->size > end)
			end = f->offset + f->size;
	return end;
}

static struct field_at field_at(const struct rtm_tracedec *d, const struct tep_format_field *f)
{
	struct field_at at = { .swap = d->swap };

	if (f) {
		at.offset = f->offset;
		at.size = f->size;
		at.present = true;
		at.dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
		at.relative = f->flags & TEP_FIELD_IS_RELATIVE;
	}
	return at;
}

static void setup_slot(struct rtm_tracedec *d, struct tep_event *ev)
{
	struct ev_slot *s;
	size_t i, j;

	if (ev->id < 0 || ev->id > d->max_id)
		return;
	s = &d->slots[ev->id];
	s->type = RTM_EV_OTHER;
	s->system = ev->system;
	s->name = ev->name;
	s->pid = field_at(d, tep_find_common_field(ev, "common_pid"));
	s->min_size = fixed_size(ev->format.common_fields);
	if (fixed_size(ev->format.fields) > s->min_size)
		s->min_size = fixed_size(ev->format.fields);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		if (strcmp(specs[i].system, ev->system) || strcmp(specs[i].name, ev->name))
			continue;
		s->type = specs[i].type;
		for (j = 0; j < MAX_FIELDS && specs[i].fields[j]; j++)
			s->f[j] = field_at(d, tep_find_field(ev, specs[i].fields[j]));
		return;
	}
	if (!strcmp(ev->system, "irq_vectors")) {
		size_t n = strlen(ev->name);

		s->f[0] = field_at(d, tep_find_field(ev, "vector"));
		if (n > 6 && !strcmp(ev->name + n - 6, "_entry"))
			s->type = RTM_EV_VECTOR_ENTRY, s->vector = true;
		else if (n > 5 && !strcmp(ev->name + n - 5, "_exit"))
			s->type = RTM_EV_VECTOR_EXIT, s->vector = true;
	}
}

struct rtm_tracedec *rtm_tracedec_alloc(const char *tracing_dir, struct rtm_error *err)
{
	return rtm_tracedec_alloc_systems(tracing_dir, NULL, err);
}

struct rtm_tracedec *rtm_tracedec_alloc_systems(const char *tracing_dir,
						const char *const *extra,
						struct rtm_error *err)
{
	const char *all[64];
	struct rtm_tracedec *d = calloc(1, sizeof(*d));
	struct tep_event **events;
	size_t k = 0, j;
	int i;

	if (!d) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	for (j = 0; systems[j]; j++)
		all[k++] = systems[j];
	for (j = 0; extra && extra[j] && k < sizeof(all) / sizeof(all[0]) - 1; j++) {
		size_t m;

		for (m = 0; m < k && strcmp(all[m], extra[j]); m++)
			;
		if (m == k)
			all[k++] = extra[j];
	}
	all[k] = NULL;
	d->tep = rtm_formats_load(tracing_dir, all);
	if (!d->tep) {
		rtm_error_set(err, "cannot load event formats from %s/events (is tracefs there?)",
			      tracing_dir);
		free(d);
		return NULL;
	}
	d->page_size = tep_get_sub_buffer_size(d->tep);
	if (d->page_size <= 0)
		d->page_size = tep_get_page_size(d->tep);
	events = tep_list_events(d->tep, TEP_EVENT_SORT_ID);
	for (i = 0; events && events[i]; i++)
		if (events[i]->id > d->max_id)
			d->max_id = events[i]->id;
	d->slots = calloc((size_t)d->max_id + 1, sizeof(*d->slots));
	d->long_size = tep_get_long_size(d->tep) == 4 ? 4 : 8;
	d->data_offset = 8 + d->long_size;	/* the records start after the page header */
	d->big = tep_is_file_bigendian(d->tep);
	d->swap = d->big != tep_is_local_bigendian(d->tep);
	if (events && events[0]) {
		d->common_size = fixed_size(events[0]->format.common_fields);
		/* every event starts with the same common fields; the type is one of them */
		d->type = field_at(d, tep_find_common_field(events[0], "common_type"));
	}
	if (!events || !d->slots || !d->type.present || d->page_size <= d->data_offset) {
		rtm_error_set(err, "no event formats under %s/events", tracing_dir);
		rtm_tracedec_free(d);
		return NULL;
	}
	for (i = 0; events[i]; i++)
		setup_slot(d, events[i]);
	return d;
}

void rtm_tracedec_free(struct rtm_tracedec *d)
{
	if (!d)
		return;
	tep_free(d->tep);
	free(d->slots);
	free(d);
}

int rtm_tracedec_page_size(const struct rtm_tracedec *d)
{
	return d->page_size;
}

/* A u8, u16, u32 or u64 at @p in the recording's byte order; 0 for any other size. */
static inline uint64_t load(const char *p, int size, bool swap)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v2, p, 2);
		return swap ? __builtin_bswap16(v2) : v2;
	case 4:
		memcpy(&v4, p, 4);
		return swap ? __builtin_bswap32(v4) : v4;
	case 8:
		memcpy(&v8, p, 8);
		return swap ? __builtin_bswap64(v8) : v8;
	default:
		return 0;
	}
}

/* A number field, zero-extended as tep_read_number_field() reads it; 0 when absent. */
static inline uint64_t num(const struct field_at *f, const char *data)
{
	return load(data + f->offset, f->size, f->swap);
}

/* Fixed char[N], __data_loc / __rel_loc char[], or a trailing char buf[]. */
static void str(const struct field_at *f, const char *data, int size, char *out, size_t len)
{
	char *nl;
	int off, n;

	out[0] = '\0';
	if (!f->present)
		return;
	if (f->dynamic) {
		uint64_t loc = num(f, data);

		off = (int)(loc & 0xffff);
		n = (int)(loc >> 16);
		if (f->relative)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size ? f->size : size - f->offset;
	}
	if (off < 0 || n < 0 || off + n > size)
		return;
	if ((size_t)n >= len)
		n = (int)len - 1;
	memcpy(out, data + off, (size_t)n);
	out[n] = '\0';
	/* one line: cut at a newline before the string's end (strcspn() costs more) */
	nl = memchr(out, '\n', strnlen(out, (size_t)n));
	if (nl)
		*nl = '\0';
}

/* The fields of each type: inline, decode() runs for every record of a page. */
static inline void decode_switch(const struct ev_slot *s, const char *data, int size,
				 struct rtm_event *ev)
{
	str(&s->f[0], data, size, ev->sw.prev_comm, sizeof(ev->sw.prev_comm));
	ev->sw.prev_pid = (int)num(&s->f[1], data);
	ev->sw.prev_prio = (int)num(&s->f[2], data);
	ev->sw.prev_state = (int64_t)num(&s->f[3], data);
	str(&s->f[4], data, size, ev->sw.next_comm, sizeof(ev->sw.next_comm));
	ev->sw.next_pid = (int)num(&s->f[5], data);
	ev->sw.next_prio = (int)num(&s->f[6], data);
}

static inline void decode_wakeup(const struct ev_slot *s, const char *data, int size,
				 struct rtm_event *ev)
{
	str(&s->f[0], data, size, ev->wakeup.comm, sizeof(ev->wakeup.comm));
	ev->wakeup.pid = (int)num(&s->f[1], data);
	ev->wakeup.prio = (int)num(&s->f[2], data);
	ev->wakeup.target_cpu = (int)num(&s->f[3], data);
}

static inline void decode_hrtimer_start(const struct ev_slot *s, const char *data,
					struct rtm_event *ev)
{
	ev->hrstart.hrtimer = num(&s->f[0], data);
	ev->hrstart.function = num(&s->f[1], data);
	ev->hrstart.expires = (int64_t)num(&s->f[2], data);
	ev->hrstart.softexpires = (int64_t)num(&s->f[3], data);
	ev->hrstart.mode = (unsigned int)num(&s->f[4], data);
}

static inline void decode_hwlat(const struct ev_slot *s, const char *data, struct rtm_event *ev)
{
	ev->hwlat.inner_us = num(&s->f[0], data);
	ev->hwlat.outer_us = num(&s->f[1], data);
	ev->hwlat.nmi_total_us = num(&s->f[2], data);
	ev->hwlat.nmi_count = (unsigned int)num(&s->f[3], data);
	ev->hwlat.seqnum = (unsigned int)num(&s->f[4], data);
	ev->hwlat.count = (unsigned int)num(&s->f[5], data);
	ev->hwlat.tv_sec = (int64_t)num(&s->f[6], data);
	ev->hwlat.tv_nsec = (int64_t)num(&s->f[7], data);
}

static inline void decode_osnoise(const struct ev_slot *s, const char *data,
				  struct rtm_event *ev)
{
	ev->osnoise.noise_us = num(&s->f[0], data);
	ev->osnoise.runtime_us = num(&s->f[1], data);
	ev->osnoise.max_sample_us = num(&s->f[2], data);
	ev->osnoise.hw = (unsigned int)num(&s->f[3], data);
	ev->osnoise.nmi = (unsigned int)num(&s->f[4], data);
	ev->osnoise.irq = (unsigned int)num(&s->f[5], data);
	ev->osnoise.softirq = (unsigned int)num(&s->f[6], data);
	ev->osnoise.thread = (unsigned int)num(&s->f[7], data);
}

/* insert and issue carry the task's comm, complete the error; older kernels no ioprio */
static inline void decode_block(const struct ev_slot *s, const char *data, int size,
				struct rtm_event *ev)
{
	ev->blk.dev = (uint32_t)num(&s->f[0], data);
	ev->blk.sector = num(&s->f[1], data);
	ev->blk.nr_sector = (uint32_t)num(&s->f[2], data);
	ev->blk.ioprio = s->f[3].present ? (int)num(&s->f[3], data) : -1;
	str(&s->f[4], data, size, ev->blk.rwbs, sizeof(ev->blk.rwbs));
	if (ev->type == RTM_EV_BLOCK_COMPLETE)
		ev->blk.error = (int)(int32_t)num(&s->f[5], data);
	else
		str(&s->f[5], data, size, ev->blk.comm, sizeof(ev->blk.comm));
}

static void decode(const struct ev_slot *s, const char *data, int size, struct rtm_event *ev)
{
	switch (s->type) {
	case RTM_EV_SCHED_SWITCH:
		decode_switch(s, data, size, ev);
		break;
	case RTM_EV_SCHED_WAKEUP:
	case RTM_EV_SCHED_WAKING:
		decode_wakeup(s, data, size, ev);
		break;
	case RTM_EV_IRQ_ENTRY:
		ev->irq.irq = (int)num(&s->f[0], data);
		str(&s->f[1], data, size, ev->irq.name, sizeof(ev->irq.name));
		break;
	case RTM_EV_IRQ_EXIT:
		ev->irq.irq = (int)num(&s->f[0], data);
		ev->irq.ret = (int)num(&s->f[1], data);
		break;
	case RTM_EV_SOFTIRQ_ENTRY:
	case RTM_EV_SOFTIRQ_EXIT:
	case RTM_EV_SOFTIRQ_RAISE:
		ev->softirq.vec = (unsigned int)num(&s->f[0], data);
		break;
	case RTM_EV_HRTIMER_ENTRY:
	case RTM_EV_HRTIMER_EXIT:
		ev->hrtimer.hrtimer = num(&s->f[0], data);
		ev->hrtimer.function = num(&s->f[1], data);
		ev->hrtimer.now = num(&s->f[2], data);
		break;
	case RTM_EV_HRTIMER_START:
		decode_hrtimer_start(s, data, ev);
		break;
	case RTM_EV_VECTOR_ENTRY:
	case RTM_EV_VECTOR_EXIT:
		ev->vector.vector = (int)num(&s->f[0], data);
		break;
	case RTM_EV_NMI:
		ev->nmi.handler = num(&s->f[0], data);
		ev->nmi.delta_ns = num(&s->f[1], data);
		break;
	case RTM_EV_PRINT:
		ev->print.ip = num(&s->f[0], data);
		str(&s->f[1], data, size, ev->print.buf, sizeof(ev->print.buf));
		break;
	case RTM_EV_HWLAT:
		decode_hwlat(s, data, ev);
		break;
	case RTM_EV_OSNOISE:
		decode_osnoise(s, data, ev);
		break;
	case RTM_EV_OSNOISE_SAMPLE:
		ev->osample.start_ns = num(&s->f[0], data);
		ev->osample.duration_ns = num(&s->f[1], data);
		ev->osample.interference = num(&s->f[2], data);
		break;
	case RTM_EV_TIMERLAT:
		ev->timerlat.seqnum = (unsigned int)num(&s->f[0], data);
		ev->timerlat.context = (int)num(&s->f[1], data);
		ev->timerlat.latency_ns = num(&s->f[2], data);
		break;
	case RTM_EV_BLOCK_INSERT:
	case RTM_EV_BLOCK_ISSUE:
	case RTM_EV_BLOCK_COMPLETE:
		decode_block(s, data, size, ev);
		break;
	default:
		break;
	}
}

/*
 * The bytes of records on @page, from its header, or -EINVAL when they do not
 * fit in the page: every read below stays inside the commit, so a page whose
 * header claims more (commit 0x0fe40028) is refused before any of them.
 */
static int page_commit(const struct rtm_tracedec *d, const void *page, bool *stored)
{
	uint64_t flags = load((const char *)page + 8, d->long_size, d->swap);
	unsigned int room = (unsigned int)(d->page_size - d->data_offset);
	unsigned int commit = (unsigned int)flags & PAGE_COMMIT_MASK;

	*stored = (flags & PAGE_MISSED_EVENTS) && (flags & PAGE_MISSED_STORED);
	if (commit > room || (*stored && commit + (unsigned int)d->long_size > room))
		return -EINVAL;
	return (int)commit;
}

uint64_t rtm_tracedec_page_ts(const struct rtm_tracedec *d, const void *page)
{
	return load(page, 8, d->swap);
}

bool rtm_tracedec_page_half(const struct rtm_tracedec *d, const void *page)
{
	bool stored;
	int commit = page_commit(d, page, &stored);

	/* a corrupt header: not the writer's page, whatever it is */
	return commit < 0 || commit >= (d->page_size - d->data_offset) / 2;
}

/*
 * The next record from @*pos on of the @commit bytes of records at @rec: its
 * offset, its length in @*size and @*pos past it, with @*ts moved by the time
 * extends, time stamps and padding before it (as libtraceevent's kbuffer reads
 * a page). -ENOENT at the end of the records; -EINVAL for an entry cut by the
 * commit or one that does not move forward: a corrupt length (padding of
 * 0xffffff00) could send the walk back to an earlier record, and round again.
 */
static inline long next_record(const struct rtm_tracedec *d, const char *rec,
			       unsigned int commit, unsigned int *pos, uint64_t *ts, int *size)
{
	while (*pos < commit) {
		unsigned int at = *pos, room = commit - at, type_len;
		uint32_t word, len;
		uint64_t delta;

		if (room < 4)
			return -EINVAL;
		word = (uint32_t)load(rec + at, 4, d->swap);
		type_len = d->big ? word >> 27 : word & 31;
		delta = d->big ? word & ((1u << RB_TS_SHIFT) - 1) : word >> 5;
		if (type_len >= 1 && type_len <= 28) {
			*size = (int)type_len * 4;
			*pos = at + 4 + type_len * 4;
			*ts += delta;
			return (long)at + 4;
		}
		/* the word after the header: beyond the commit, the page ends here */
		if (room < 8)
			return type_len ? -ENOENT : -EINVAL;
		len = (uint32_t)load(rec + at + 4, 4, d->swap);
		switch (type_len) {
		case 0:		/* the length, plus its own 4 bytes, rounded up to 4 */
			if (len < 4 || (((uint64_t)len - 4 + 3) & ~3ull) > room - 8)
				return -EINVAL;
			*size = (int)((len - 4 + 3) & ~3u);
			*pos = at + 8 + (unsigned int)*size;
			*ts += delta;
			return (long)at + 8;
		case RB_TYPE_PADDING:
			if ((int32_t)len < 0)
				return -EINVAL;
			*ts += delta;
			if ((uint64_t)len + 4 >= room)
				return -ENOENT;
			*pos = at + 4 + len;
			break;
		case RB_TYPE_TIME_EXTEND:
			*ts += ((uint64_t)len << RB_TS_SHIFT) + delta;
			*pos = at + 8;
			break;
		default:	/* RB_TYPE_TIME_STAMP */
			*ts = (((uint64_t)len << RB_TS_SHIFT) + delta) | (*ts & RB_TS_MSB);
			*pos = at + 8;
			break;
		}
	}
	return -ENOENT;
}

/* The event of the record at @data (@size bytes): its header fields and its own. */
static inline void fill_event(const struct ev_slot *s, const char *data, int size,
			      struct rtm_event *ev)
{
	ev->raw = data;
	ev->raw_size = size;
	if (s) {
		ev->type = s->type;
		ev->system = s->system;
		ev->name = s->name;
		ev->pid = (int)num(&s->pid, data);
		decode(s, data, size, ev);
	} else {
		ev->type = RTM_EV_OTHER;
		ev->system = "";
		ev->name = "unknown";
	}
}

int rtm_tracedec_page(struct rtm_tracedec *d, void *page, int cpu, rtm_event_cb cb, void *ctx,
		      uint64_t *lost)
{
	const char *records = (const char *)page + d->data_offset;
	unsigned int pos = 0;
	int n = 0, commit, size, ret;
	bool stored;
	uint64_t ts;

	commit = page_commit(d, page, &stored);
	if (commit < 0)
		goto refused;
	/*
	 * The count of events missed before the page, from its header. Without
	 * the count stored (no room on the page) the number is not known and
	 * nothing is added.
	 */
	if (stored && lost)
		*lost += load(records + commit, d->long_size, d->swap);
	ts = load(page, 8, d->swap);
	for (;;) {
		long off = next_record(d, records, (unsigned int)commit, &pos, &ts, &size);
		const struct ev_slot *s = NULL;
		const char *data;
		struct rtm_event ev;
		int id;

		if (off == -ENOENT)
			break;
		/* a record cut by the commit or too short for the common fields */
		if (off < 0 || size < d->common_size || size < 2 || off + size > commit)
			goto refused;
		data = records + off;
		id = (int)num(&d->type, data);
		if (id >= 0 && id <= d->max_id && d->slots[id].name) {
			s = &d->slots[id];
			if (size < s->min_size)
				goto refused;	/* shorter than its own fields */
		}
		n++;
		if (!cb)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.ts_ns = ts;
		ev.cpu = cpu;
		fill_event(s, data, size, &ev);
		ret = cb(&ev, ctx);
		if (ret)
			return ret;
	}
	return n;
refused:
	d->refused++;
	return -EINVAL;
}

/* The held page: decoded when its events may reach @f->from_ns (or it is first), else walked. */
static int from_release(struct rtm_tracedec *d, struct rtm_tracedec_from *f, bool reaches,
			rtm_event_cb cb, void *ctx, uint64_t *lost)
{
	bool decode = reaches || f->held_first;

	f->holding = false;
	if (decode)
		f->decoded++;
	else
		f->walked++;
	return rtm_tracedec_page(d, f->held, f->held_cpu, decode ? cb : NULL, ctx, lost);
}

int rtm_tracedec_from_page(struct rtm_tracedec *d, struct rtm_tracedec_from *f, const void *page,
			   int cpu, rtm_event_cb cb, void *ctx, uint64_t *lost)
{
	bool first = !f->holding || f->held_cpu != cpu;
	int ret = 0;

	if (!f->held && !(f->held = malloc((size_t)d->page_size)))
		return -ENOMEM;
	if (f->holding) {
		/*
		 * The held page's records were written before this page began: when it
		 * begins before @from_ns, none of them is wanted. Another CPU's page
		 * ends the held one's CPU: its last page, decoded.
		 */
		bool reaches = first || load(page, 8, d->swap) >= f->from_ns;

		ret = from_release(d, f, reaches, cb, ctx, lost);
	}
	memcpy(f->held, page, (size_t)d->page_size);
	f->held_cpu = cpu;
	f->held_first = first;
	f->holding = true;
	return ret;
}

int rtm_tracedec_from_end(struct rtm_tracedec *d, struct rtm_tracedec_from *f, rtm_event_cb cb,
			  void *ctx, uint64_t *lost)
{
	return f->holding ? from_release(d, f, true, cb, ctx, lost) : 0;
}

void rtm_tracedec_from_free(struct rtm_tracedec_from *f)
{
	free(f->held);
	f->held = NULL;
	f->holding = false;
}

uint64_t rtm_tracedec_refused(const struct rtm_tracedec *d)
{
	return d->refused;
}

int rtm_tracedec_print(struct rtm_tracedec *d, const struct rtm_event *ev, char *buf,
		       size_t len)
{
	struct tep_record rec = { .ts = ev->ts_ns, .cpu = ev->cpu, .data = (void *)ev->raw,
				  .size = ev->raw_size };
	struct trace_seq seq;
	int id, n;

	if (!ev->raw || ev->raw_size <= 0 || !len)
		return -EINVAL;
	if (ev->raw_size < 2)
		return -EINVAL;
	id = tep_data_type(d->tep, &rec);
	if (id < 0 || id > d->max_id || !d->slots[id].name ||
	    ev->raw_size < d->slots[id].min_size)
		return -EINVAL;
	/* function names (%ps) need the symbols: loaded by the first print, not by decoding */
	if (!d->kallsyms) {
		rtm_formats_load_kallsyms(d->tep);
		d->kallsyms = true;
	}
	trace_seq_init(&seq);
	tep_print_event(d->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	if (seq.state != TRACE_SEQ__GOOD) {
		trace_seq_destroy(&seq);
		return -ENOMEM;
	}
	n = snprintf(buf, len, "%s", seq.buffer);
	trace_seq_destroy(&seq);
	/* one event, one line: a print fmt may carry a trailing newline (ftrace:print) */
	buf[strcspn(buf, "\n")] = '\0';
	return n < 0 ? -EINVAL : (int)strlen(buf);
}

/* The fields of a scheduler event as the kernel's print fmt shows them. */
static int format_sched(const struct rtm_event *ev, char *buf, size_t len)
{
	if (ev->type == RTM_EV_SCHED_SWITCH)
		return snprintf(buf, len, "prev_comm=%s prev_pid=%d prev_prio=%d "
				"prev_state=%lld ==> next_comm=%s next_pid=%d next_prio=%d",
				ev->sw.prev_comm, ev->sw.prev_pid, ev->sw.prev_prio,
				(long long)ev->sw.prev_state, ev->sw.next_comm, ev->sw.next_pid,
				ev->sw.next_prio);
	return snprintf(buf, len, "comm=%s pid=%d prio=%d target_cpu=%d", ev->wakeup.comm,
			ev->wakeup.pid, ev->wakeup.prio, ev->wakeup.target_cpu);
}

/* The fields of an hrtimer event. */
static int format_hrtimer(const struct rtm_event *ev, char *buf, size_t len)
{
	switch (ev->type) {
	case RTM_EV_HRTIMER_ENTRY:
		return snprintf(buf, len, "hrtimer=0x%llx function=0x%llx now=%llu",
				(unsigned long long)ev->hrtimer.hrtimer,
				(unsigned long long)ev->hrtimer.function,
				(unsigned long long)ev->hrtimer.now);
	case RTM_EV_HRTIMER_EXIT:
		return snprintf(buf, len, "hrtimer=0x%llx",
				(unsigned long long)ev->hrtimer.hrtimer);
	default:	/* RTM_EV_HRTIMER_START */
		return snprintf(buf, len, "hrtimer=0x%llx function=0x%llx expires=%lld "
				"softexpires=%lld mode=%u", (unsigned long long)ev->hrstart.hrtimer,
				(unsigned long long)ev->hrstart.function,
				(long long)ev->hrstart.expires, (long long)ev->hrstart.softexpires,
				ev->hrstart.mode);
	}
}

/* The fields of an event of the hwlat, osnoise and timerlat tracers. */
static int format_tracer(const struct rtm_event *ev, char *buf, size_t len)
{
	switch (ev->type) {
	case RTM_EV_HWLAT:
		return snprintf(buf, len, "#%u inner/outer(us): %llu/%llu count:%u "
				"nmi-ts:%llu nmi-count:%u", ev->hwlat.seqnum,
				(unsigned long long)ev->hwlat.inner_us,
				(unsigned long long)ev->hwlat.outer_us, ev->hwlat.count,
				(unsigned long long)ev->hwlat.nmi_total_us, ev->hwlat.nmi_count);
	case RTM_EV_OSNOISE:
		return snprintf(buf, len, "runtime:%llu noise:%llu max_sample:%llu hw:%u "
				"nmi:%u irq:%u softirq:%u thread:%u",
				(unsigned long long)ev->osnoise.runtime_us,
				(unsigned long long)ev->osnoise.noise_us,
				(unsigned long long)ev->osnoise.max_sample_us, ev->osnoise.hw,
				ev->osnoise.nmi, ev->osnoise.irq, ev->osnoise.softirq,
				ev->osnoise.thread);
	case RTM_EV_OSNOISE_SAMPLE:
		return snprintf(buf, len, "duration %llu ns interference %llu",
				(unsigned long long)ev->osample.duration_ns,
				(unsigned long long)ev->osample.interference);
	default:	/* RTM_EV_TIMERLAT */
		return snprintf(buf, len, "#%u context %s timer_latency %llu ns",
				ev->timerlat.seqnum, ev->timerlat.context == 0 ? "irq" :
				ev->timerlat.context == 1 ? "thread" : "user",
				(unsigned long long)ev->timerlat.latency_ns);
	}
}

int rtm_event_format(const struct rtm_event *ev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "  cpu %d  %llu.%09llu  %s: ", ev->cpu,
			 (unsigned long long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long long)(ev->ts_ns % 1000000000ULL), ev->name);
	size_t off = n > 0 && (size_t)n < len ? (size_t)n : len;

	if (off >= len)
		return -1;
	if (ev->info) {
		n = snprintf(buf + off, len - off, "%s", ev->info);
		return n < 0 ? -1 : 0;
	}
	switch (ev->type) {
	case RTM_EV_SCHED_SWITCH:
	case RTM_EV_SCHED_WAKEUP:
	case RTM_EV_SCHED_WAKING:
		n = format_sched(ev, buf + off, len - off);
		break;
	case RTM_EV_IRQ_ENTRY:
		n = snprintf(buf + off, len - off, "irq=%d name=%s", ev->irq.irq, ev->irq.name);
		break;
	case RTM_EV_IRQ_EXIT:
		n = snprintf(buf + off, len - off, "irq=%d ret=%s", ev->irq.irq,
			     ev->irq.ret ? "handled" : "unhandled");
		break;
	case RTM_EV_SOFTIRQ_ENTRY:
	case RTM_EV_SOFTIRQ_EXIT:
	case RTM_EV_SOFTIRQ_RAISE:
		n = snprintf(buf + off, len - off, "vec=%u", ev->softirq.vec);
		break;
	case RTM_EV_HRTIMER_ENTRY:
	case RTM_EV_HRTIMER_EXIT:
	case RTM_EV_HRTIMER_START:
		n = format_hrtimer(ev, buf + off, len - off);
		break;
	case RTM_EV_VECTOR_ENTRY:
	case RTM_EV_VECTOR_EXIT:
		n = snprintf(buf + off, len - off, "vector=%d", ev->vector.vector);
		break;
	case RTM_EV_NMI:
		n = snprintf(buf + off, len - off, "handler=0x%llx delta_ns=%llu",
			     (unsigned long long)ev->nmi.handler,
			     (unsigned long long)ev->nmi.delta_ns);
		break;
	case RTM_EV_PRINT:
		n = snprintf(buf + off, len - off, "%s", ev->print.buf);
		break;
	case RTM_EV_HWLAT:
	case RTM_EV_OSNOISE:
	case RTM_EV_OSNOISE_SAMPLE:
	case RTM_EV_TIMERLAT:
		n = format_tracer(ev, buf + off, len - off);
		break;
	case RTM_EV_BLOCK_INSERT:
	case RTM_EV_BLOCK_ISSUE:
	case RTM_EV_BLOCK_COMPLETE:
		n = snprintf(buf + off, len - off, "%u,%u %s %llu + %u ioprio=%d [%s]",
			     ev->blk.dev >> 20, ev->blk.dev & ((1U << 20) - 1), ev->blk.rwbs,
			     (unsigned long long)ev->blk.sector, ev->blk.nr_sector, ev->blk.ioprio,
			     ev->blk.comm);
		break;
	default:
		n = snprintf(buf + off, len - off, "(not decoded)");
		break;
	}
	return n < 0 ? -1 : 0;
}
