// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_tracedec - the raw ring-buffer page decoder (lib/tracefs/tracedec.c, its
 * own page walk and field loads), with the event formats recorded on this VM's 6.18
 * kernel and on Debian's 6.1 PREEMPT_RT kernel, loaded once in
 * LLVMFuzzerInitialize (loading them takes far longer than decoding a page).
 * An input is up to four pages (a short last one is padded with zeros), each
 * decoded into a buffer of exactly one page with both sets of formats, every
 * event printed through libtraceevent and as rtmeasure's one-line form.
 * Seeds: tests/data/trace-*\/cpuN.raw cut into pages.
 */
#include <errno.h>
#include <limits.h>

#include "tracefs/tracedec.h"
#include "fuzz.h"

static struct rtm_tracedec *dec[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const trees[] = { "trace-vm-6.18", "trace-rt-6.1" };
	struct rtm_error err = { "" };
	char dir[PATH_MAX];
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", fuzz_testdata(), trees[i]);
		dec[i] = rtm_tracedec_alloc(dir, &err);
		if (!dec[i] || rtm_tracedec_page_size(dec[i]) != 4096) {
			fprintf(stderr, "fuzz_tracedec: cannot load the formats of %s: %s\n", dir,
				err.msg);
			exit(2);
		}
	}
	return 0;
}

static int on_event(const struct rtm_event *ev, void *arg)
{
	struct rtm_tracedec *d = arg;
	char text[1024];
	int n;

	fuzz_check(ev->raw && ev->raw_size > 0, "an event without its record");
	fuzz_check((unsigned int)ev->type < RTM_EV_NTYPES, "type %d", ev->type);
	n = rtm_tracedec_print(d, ev, text, sizeof(text));
	fuzz_check(n < 0 || (size_t)n < sizeof(text), "printed %d bytes", n);
	rtm_event_format(ev, text, sizeof(text));
	if (ev->type == RTM_EV_SCHED_SWITCH)
		fuzz_check(strlen(ev->sw.prev_comm) < RTM_COMM_LEN &&
			   strlen(ev->sw.next_comm) < RTM_COMM_LEN, "comm not terminated");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off;
	int i, n;

	for (off = 0; off < size && off < 4 * 4096; off += 4096) {
		size_t len = size - off < 4096 ? size - off : 4096;
		char *page = calloc(1, 4096);	/* exactly one page: ASan sees a read past it */
		uint64_t lost = 0;

		if (!page)
			return 0;
		memcpy(page, data + off, len);
		for (i = 0; i < 2; i++) {
			n = rtm_tracedec_page(dec[i], page, 0, on_event, dec[i], &lost);
			fuzz_check(n >= 0 || n == -EINVAL, "page decode returned %d", n);
		}
		free(page);
	}
	return 0;
}
