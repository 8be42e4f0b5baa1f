/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * formats.h - event formats into a libtraceevent handle, without kallsyms.
 *
 * tracefs_local_events_system() parses all of /proc/kallsyms into every
 * handle it makes (about 65 ms on a 6.18 kernel, three times when a run
 * traces into three instances), though only printing an event's text needs
 * kernel symbols. These load the formats alone, and the symbols when a
 * printer first asks for them.
 */
#ifndef RTM_FORMATS_H
#define RTM_FORMATS_H

#include <event-parse.h>

/**
 * rtm_formats_load - header_page, the formats of @systems, saved_cmdlines and
 * printk_formats under @tracing_dir (a tracefs mount or a recorded copy)
 * @systems: NULL-terminated; a group counts when it has an "enable" file, as
 *           libtracefs decides (ftrace has none and always counts)
 *
 * NULL when there is no events/header_page to read.
 */
struct tep_handle *rtm_formats_load(const char *tracing_dir, const char *const *systems);

/* Parse /proc/kallsyms into @tep (best effort: hidden addresses leave it as it is). */
void rtm_formats_load_kallsyms(struct tep_handle *tep);

#endif
