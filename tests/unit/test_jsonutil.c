// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: text rtmeasure did not write goes into JSON even when it is not
 * UTF-8 (a /proc/interrupts action name with a stray byte made the whole
 * `irq --json` document NULL; found by fuzz_proc_interrupts).
 */
#include <string.h>

#include "irq.h"
#include "jsonutil.h"
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
	return tap_done();
}
