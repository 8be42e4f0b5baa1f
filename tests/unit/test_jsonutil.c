// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: text rtmeasure did not write goes into JSON even when it is not
 * UTF-8 (a /proc/interrupts action name with a stray byte made the whole
 * `irq --json` document NULL; found by fuzz_proc_interrupts). A task may name
 * itself with any bytes (prctl PR_SET_NAME): its events still go into spike
 * files and analyses.
 */
#include <string.h>

#include "trace/analysis.h"
#include "trace/capture.h"
#include "core/fileio.h"
#include "result/import.h"
#include "irq/irq.h"
#include "core/jsonutil.h"
#include "result/result.h"
#include "../tap.h"

static void text(const char *in, size_t len, const char *want, const char *name)
{
	json_t *j = rtm_json_textn(in, len);

	ok(j && json_is_string(j), "%s: a JSON string", name);
	if (j && json_is_string(j))
		ok(json_string_length(j) == strlen(want) && !strcmp(json_string_value(j), want),
		   "%s: \"%s\" (got \"%s\")", name, want, json_string_value(j));
	json_decref(j);
}

int main(void)
{
	static const char procirq[] =
		"           CPU0       CPU1\n"
		"  24:         10          2  PCI-MSIX-0000:00:0\xfd.0   0-edge      virtio\xff-config\n"
		"LOC:        100        200   Local timer interrupts\n";
	struct rtm_error err = { "" };
	struct rtm_irq_snap a, d;
	json_t *j;

	text("plain ascii", 11, "plain ascii", "ASCII");
	text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	     "2-, 3- and 4-byte UTF-8 kept");
	text("a\xff" "b", 3, "a?b", "a stray byte");
	text("\xc0\xaf", 2, "??", "an overlong '/'");
	text("\xed\xa0\x80", 3, "???", "a UTF-16 surrogate");
	text("\xf4\x90\x80\x80", 4, "????", "beyond U+10FFFF");
	text("ab\xe2\x82", 4, "ab??", "a sequence cut short at the end");
	text("a\0b", 3, "a?b", "a NUL inside the text");
	j = rtm_json_text(NULL);
	ok(json_is_null(j), "NULL: json null");
	json_decref(j);

	memset(&a, 0, sizeof(a));
	ok(rtm_irq_parse_interrupts(&a, procirq, sizeof(procirq) - 1, "interrupts", &err) == 0,
	   "/proc/interrupts with bytes that are not UTF-8 parses (%s)", err.msg);
	ok(rtm_irq_delta(NULL, &a, &d, &err) == 0, "its difference from boot");
	j = rtm_irq_delta_to_json(&d, true);
	ok(j != NULL, "and its JSON form exists");
	ok(j && json_string_value(json_object_get(json_array_get(json_object_get(j, "irqs"), 0),
						  "actions")) &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(j, "irqs"),
								   0), "actions")),
		   "virtio?-config"),
	   "the action name with '?' for the stray byte");
	json_decref(j);
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&a);

	{
		struct rtm_event ev = { .ts_ns = 1, .type = RTM_EV_SCHED_SWITCH,
					.system = "sched", .name = "sched_switch" };
		struct rtm_analysis an;

		snprintf(ev.sw.prev_comm, sizeof(ev.sw.prev_comm), "worker\xff");
		snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "rtm-probe/0");
		j = rtm_event_to_json(&ev);
		ok(j && !strcmp(json_string_value(json_object_get(j, "prev_comm")) ?: "",
				"worker?"), "an event of a task named with a stray byte: in JSON");
		json_decref(j);
		memset(&an, 0, sizeof(an));
		an.held_by = -1;
		an.ntasks = 1;
		snprintf(an.tasks[0].comm, sizeof(an.tasks[0].comm), "worker\xff");
		snprintf(an.verdict, sizeof(an.verdict), "while worker\xff ran");
		j = rtm_analysis_to_json(&an);
		ok(j && !strcmp(json_string_value(json_object_get(j, "verdict")) ?: "",
				"while worker? ran"), "an analysis naming that task: in JSON");
		json_decref(j);
	}
	/* an imported version string cut to 31 bytes in the middle of a character */
	{
		const char *data = getenv("RTM_TESTDATA") ?: "tests/data";
		char path[4096], *text, *at, *doc;
		struct rtm_result *r;
		size_t len = 0;

		snprintf(path, sizeof(path), "%s/import/cyclictest-h100.json", data);
		text = rtm_read_all("", path, &len);
		at = text ? strstr(text, "\"2.40\"") : NULL;
		doc = malloc(len + 64);
		if (ok(at && doc, "cyclictest-h100.json has version \"2.40\"")) {
			snprintf(doc, len + 64, "%.*s\"2.4-\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				 "\xc3\xa9\"%s", (int)(at - text), text, at + 6);
			r = rtm_import_buffer(doc, strlen(doc), "long-version.json", NULL, &err);
			ok(r != NULL, "a version in UTF-8 longer than 31 bytes imports (%s)", err.msg);
			j = r ? rtm_result_to_json(r) : NULL;
			ok(j != NULL, "and the result has its JSON form");
			json_decref(j);
			rtm_result_free(r);
		}
		free(doc);
		free(text);
	}
	return tap_done();
}
