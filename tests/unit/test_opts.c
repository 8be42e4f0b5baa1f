// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: options as data (lib/cli/opts.c): a table into getopt_long()'s
 * arrays, parsing with them, and --help / --help-all printed from it; the
 * shared tables of the measuring commands (lib/cli/measure_opts.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "../tap.h"

enum { K_SIZE = RTM_OPT_KEY0, K_FOLLOW, K_LONG };
enum { G_MAIN, G_OUT, G_RARE };

/* A table two commands could share, with an alias and a refused (hidden) option. */
static const struct rtm_opt shared[] = {
	{ "cpus", 'a', required_argument, "LIST", G_MAIN, "CPUs to measure" },
	{ "affinity", 'a', optional_argument, "LIST", G_MAIN, NULL },
	{ "refused", 'r', no_argument, NULL, RTM_OPT_HIDDEN, "never listed" },
	RTM_OPT_END,
};

static const struct rtm_opt own[] = {
	{ "output", 'o', required_argument, "OUT", G_OUT,
	  "where to write: a folder that does not exist yet, or an empty one; the plots "
	  "go into OUT/plots and the pages next to them" },
	{ "size", K_SIZE, required_argument, "WxH", G_OUT, "image size in pixels" },
	{ "follow", K_FOLLOW, no_argument, NULL, G_RARE, "let OUT be a symbolic link" },
	{ "a-very-long-option-name", K_LONG, required_argument, "VALUE", G_RARE,
	  "its help on the next line\nand a line of its own" },
	{ NULL, 'q', no_argument, NULL, G_MAIN, "quiet" },
	RTM_OPT_HELP_ROWS(G_MAIN),
	RTM_OPT_END,
};

static const struct rtm_opt_group groups[] = {
	[G_MAIN] = { NULL, true },
	[G_OUT] = { "Output", true },
	[G_RARE] = { "Rarely needed", false },
};

static const struct rtm_cmd_opts cmd = {
	.command = "demo",
	.usage = "usage: rtmeasure demo [options]\n\nA command to test the option tables.\n",
	.groups = groups,
	.ngroups = 3,
	.tables = { shared, own },
	.epilog = "\nThe end.\n",
};

static void test_arrays(void)
{
	static const char *const names[] = { "cpus", "affinity", "refused", "output", "size",
					     "follow", "a-very-long-option-name", "help",
					     "help-all" };
	static const int keys[] = { 'a', 'a', 'r', 'o', K_SIZE, K_FOLLOW, K_LONG, RTM_OPT_HELP,
				    RTM_OPT_HELP_ALL };
	struct rtm_getopt g;
	bool same = true;
	size_t i;

	is_int(rtm_opts_getopt(&cmd, &g), 0, "a good table builds");
	is_str(g.shortopts, "a::ro:q", "short options once each, '::' when an alias is optional");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		same &= g.longopts[i].name && !strcmp(g.longopts[i].name, names[i]) &&
			g.longopts[i].val == keys[i] && !g.longopts[i].flag;
	ok(same, "long options in table order, hidden and aliases included");
	is_int(g.longopts[1].has_arg, optional_argument, "an alias keeps its own has_arg");
	ok(!g.longopts[9].name && !g.longopts[9].val, "the long options end with a zero row");
}

static int next(struct rtm_getopt *g, int argc, char **argv)
{
	return getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
}

static void test_parse(void)
{
	char *argv[] = { "demo", "-a1", "--cpus", "2", "file", "--size=3x4", "-q", "--affinity",
			 "--bogus", "-Z", "--follow=x", "--he", "-o", NULL };
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
	struct rtm_getopt g;

	rtm_opts_getopt(&cmd, &g);
	optind = 1;
	opterr = 0;
	is_int(next(&g, argc, argv), 'a', "-a1: the short option");
	is_str(optarg, "1", "-a1: its value");
	is_int(next(&g, argc, argv), 'a', "--cpus 2: the key of -a");
	is_str(optarg, "2", "--cpus 2: its value");
	is_int(next(&g, argc, argv), K_SIZE, "--size=3x4: a named key");
	is_str(optarg, "3x4", "--size=3x4: its value");
	is_int(next(&g, argc, argv), 'q', "-q: a short option without a long name");
	is_int(next(&g, argc, argv), 'a', "--affinity: the alias gives the key of -a");
	ok(optarg == NULL, "--affinity: its value is optional");
	is_int(next(&g, argc, argv), '?', "--bogus: unknown");
	is_int(next(&g, argc, argv), '?', "-Z: unknown");
	is_int(optopt, 'Z', "-Z: optopt names it");
	is_int(next(&g, argc, argv), '?', "--follow=x: takes no value");
	is_int(optopt, K_FOLLOW, "--follow=x: optopt names the option");
	is_int(next(&g, argc, argv), '?', "--he: ambiguous (--help, --help-all)");
	is_int(next(&g, argc, argv), '?', "-o without its value");
	is_int(optopt, 'o', "-o: optopt names it");
	is_int(next(&g, argc, argv), -1, "the end");
	is_str(argv[optind], "file", "the operand is left after the options");
}

static void test_bad_tables(void)
{
	static const struct rtm_opt nokey[] = {
		{ "nokey", 0, no_argument, NULL, 0, "a row without key" }, RTM_OPT_END,
	};
	static const struct rtm_opt twice[] = {
		{ "json", 'j', no_argument, NULL, 0, "x" },
		{ "json", 'J', no_argument, NULL, 0, "y" }, RTM_OPT_END,
	};
	static const struct rtm_opt disagree[] = {
		{ "one", 'x', no_argument, NULL, 0, "x" },
		{ "two", 'x', required_argument, "V", 0, "y" }, RTM_OPT_END,
	};
	static const struct rtm_opt colon[] = {
		{ "colon", ':', no_argument, NULL, 0, "x" }, RTM_OPT_END,
	};
	static struct rtm_opt many[RTM_OPTS_MAX + 2];
	struct rtm_cmd_opts c = { .command = "bad", .usage = "", .groups = groups, .ngroups = 1 };
	struct rtm_getopt g;
	static char names[RTM_OPTS_MAX + 1][8];
	int i;

	c.tables[0] = nokey;
	is_int(rtm_opts_getopt(&c, &g), -EINVAL, "a row without key is refused");
	c.tables[0] = twice;
	is_int(rtm_opts_getopt(&c, &g), -EINVAL, "a long name twice is refused");
	c.tables[0] = disagree;
	is_int(rtm_opts_getopt(&c, &g), -EINVAL, "rows of a short option that disagree on a value");
	c.tables[0] = colon;
	is_int(rtm_opts_getopt(&c, &g), -EINVAL, "':' cannot be a short option");
	for (i = 0; i < RTM_OPTS_MAX + 1; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		many[i] = (struct rtm_opt){ names[i], RTM_OPT_KEY0 + i, no_argument, NULL, 0, "x" };
	}
	c.tables[0] = many;
	is_int(rtm_opts_getopt(&c, &g), -E2BIG, "more rows than RTM_OPTS_MAX");
}

static void test_names(void)
{
	char buf[64];

	is_str(rtm_opts_name(&cmd, 'a', buf, sizeof(buf)), "-a/--cpus", "short and long");
	is_str(rtm_opts_name(&cmd, K_SIZE, buf, sizeof(buf)), "--size", "long only");
	is_str(rtm_opts_name(&cmd, 'q', buf, sizeof(buf)), "-q", "short only");
	ok(rtm_opts_find(&cmd, 'a') == &shared[0], "the first row of a key");
	ok(rtm_opts_find(&cmd, 'Z') == NULL, "no row of an unknown key");
}

static char *help_text(const struct rtm_cmd_opts *c, bool all)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || rtm_opts_help(c, f, all))
		exit(99);
	fclose(f);
	return text;
}

static const char want_help[] =
	"usage: rtmeasure demo [options]\n"
	"\n"
	"A command to test the option tables.\n"
	"\n"
	"  -a, --cpus LIST        CPUs to measure\n"
	"      --affinity[=LIST]  the same as --cpus\n"
	"  -q                     quiet\n"
	"      --help             this help\n"
	"      --help-all         this help with every option\n"
	"\n"
	"Output:\n"
	"  -o, --output OUT       where to write: a folder that does not exist yet, or\n"
	"                         an empty one; the plots go into OUT/plots and the\n"
	"                         pages next to them\n"
	"      --size WxH         image size in pixels\n"
	"\n"
	"rtmeasure demo --help-all lists 2 more options: Rarely needed.\n"
	"\n"
	"The end.\n";

/* After the common groups: the others, a name too wide for the column alone on its line. */
static const char want_rare[] =
	"\n"
	"Rarely needed:\n"
	"      --follow           let OUT be a symbolic link\n"
	"      --a-very-long-option-name VALUE\n"
	"                         its help on the next line\n"
	"                         and a line of its own\n"
	"\n"
	"The end.\n";

static void test_help(void)
{
	char *help = help_text(&cmd, false), *all = help_text(&cmd, true);
	const char *note = strstr(help, "\nrtmeasure demo --help-all");
	size_t common = note ? (size_t)(note - help) : 0;
	bool narrow = true;
	const char *line;

	is_str(help, want_help, "--help: the common groups, a note on the others");
	ok(note && !strncmp(all, help, common), "--help-all starts with what --help lists");
	is_str(all + common, want_rare, "--help-all: then the other groups, titled");
	ok(!strstr(all, "refused"), "a hidden option is never listed");
	for (line = all; *line; line += strcspn(line, "\n") + 1)
		narrow &= strcspn(line, "\n") < 80;
	ok(narrow, "every line ends before column 80");
	free(help);
	free(all);
}

static void test_one_group(void)
{
	static const struct rtm_opt opts[] = {
		{ "json", 'j', no_argument, NULL, 0, "JSON" },
		RTM_OPT_HELP_ROWS(0),
		RTM_OPT_END,
	};
	static const struct rtm_opt_group one[] = { { NULL, true } };
	struct rtm_cmd_opts c = { .command = "one", .usage = "usage: one\n", .groups = one,
				  .ngroups = 1, .tables = { opts } };
	char *help = help_text(&c, false), *all = help_text(&c, true);

	is_str(help, "usage: one\n\n  -j, --json      JSON\n      --help      this help\n"
	       "      --help-all  this help with every option\n", "one group: no title, no note");
	is_str(all, help, "one group: --help and --help-all are the same");
	free(help);
	free(all);
}

/* The rows of @a and @b alike but for their groups and help (the monitor's versions). */
static bool same_rows(const struct rtm_opt *a, const struct rtm_opt *b)
{
	for (; a->name && b->name; a++, b++)
		if (strcmp(a->name, b->name) || a->key != b->key || a->has_arg != b->has_arg)
			return false;
	return !a->name && !b->name;
}

static void test_measure_tables(void)
{
	/* the order getopt_long() has always seen: ambiguity messages list candidates so */
	static const char *const names[] = {
		"cpus", "affinity", "threads", "smp", "interval", "distance", "priority", "prio",
		"policy", "mode", "nanosleep", "posix_timers", "clock", "duration", "loops",
		"breaktrace", "fail-above", "histogram", "histofall", "histfile", "output",
		"force", "follow", "fallback-dir", "quiet", "json", "nsecs", "unbuffered",
		"mlockall", "no-mlock",
		"no-dma-latency", "laptop", "default-system", "latency", "deepest-idle-state",
		"prometheus", "no-rt", "housekeeping", "exclusive", "mainaffinity",
		"series-interval", "log-above", "spike", "log-max", "spike-nodes", "trace",
		"trace-events", "trace-buffer", "capture-above", "max-captures",
		"capture-holdoff", "trace-filter", "rt-hold", "timer-irq", "backend", "bpf",
		"aligned",
		"fifo", "refresh_on_max", "relative", "resolution", "system", "verbose", "oscope",
		"priospread", "secaligned", "smi", "tracemark", "dbg_cyclictest",
	};
	const size_t n = sizeof(names) / sizeof(names[0]);
	const struct rtm_cmd_opts c = { .tables = { measure_opts_probe, measure_opts_results,
						    measure_opts_system, measure_opts_trace,
						    measure_opts_refused } };
	const struct rtm_opt *o;
	struct rtm_getopt g;
	bool same = true, hidden = true;
	char buf[64];
	size_t i;

	is_int(rtm_opts_getopt(&c, &g), 0, "the shared tables build");
	for (i = 0; i < n; i++)
		same &= g.longopts[i].name && !strcmp(g.longopts[i].name, names[i]);
	ok(same && !g.longopts[n].name, "the shared long options in cyclictest's order");
	is_str(g.shortopts, "a::t::Si:d:p:nxc:D:l:b:h:H:o:qNume:A:F:MrRsv",
	       "the short options, -a and -t with an optional value");
	for (o = measure_opts_refused; o->name; o++)
		hidden &= o->group == RTM_OPT_HIDDEN && o->help && *o->help;
	ok(hidden, "refused options are hidden, each with its reason");
	ok(same_rows(measure_opts_results_monitor, measure_opts_results),
	   "the monitor's results table: the same rows in the same order");
	ok(same_rows(measure_opts_trace_monitor, measure_opts_trace),
	   "the monitor's tracing table: the same rows in the same order");
	is_str(measure_opt_name('A', buf, sizeof(buf)), "-A/--aligned", "a refused option's name");
	is_str(measure_opt_name(MEASURE_OPT_NO_DMA_LATENCY, buf, sizeof(buf)), "--no-dma-latency",
	       "an option with aliases: its first name");
}

int main(void)
{
	test_arrays();
	test_parse();
	test_bad_tables();
	test_names();
	test_help();
	test_one_group();
	test_measure_tables();
	return tap_done();
}
