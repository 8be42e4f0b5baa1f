// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opts.c - a command's options as data: getopt_long()'s arrays and --help
 * from one table (opts.h).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "cli/opts.h"

/* Help lines end before this column, as the hand-written help did. */
#define HELP_WIDTH	80
/* Option names wider than this get their help on the next line. */
#define LEFT_MAX	28

/* Calls @fn for every row of @c's tables, in order; stops at its first non-zero return. */
static int each_row(const struct rtm_cmd_opts *c, int (*fn)(const struct rtm_opt *, void *),
		    void *ctx)
{
	const struct rtm_opt *o;
	int t, ret;

	for (t = 0; t < RTM_OPT_TABLES && c->tables[t]; t++) {
		for (o = c->tables[t]; o->name || o->key; o++) {
			ret = fn(o, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static bool is_short(int key)
{
	return key > 0 && key < RTM_OPT_KEY0;
}

struct find {
	int key;
	const struct rtm_opt *row;
};

static int find_row(const struct rtm_opt *o, void *ctx)
{
	struct find *f = ctx;

	if (o->key != f->key)
		return 0;
	f->row = o;
	return 1;
}

const struct rtm_opt *rtm_opts_find(const struct rtm_cmd_opts *c, int key)
{
	struct find f = { key, NULL };

	each_row(c, find_row, &f);
	return f.row;
}

const char *rtm_opts_name(const struct rtm_cmd_opts *c, int key, char *buf, size_t len)
{
	const struct rtm_opt *o = rtm_opts_find(c, key);
	const char *lname = o ? o->name : NULL;

	if (is_short(key) && lname)
		snprintf(buf, len, "-%c/--%s", key, lname);
	else if (is_short(key))
		snprintf(buf, len, "-%c", key);
	else
		snprintf(buf, len, "--%s", lname ? lname : "?");
	return buf;
}

/* ---------------------------------------------------------------- getopt arrays */

struct build {
	const struct rtm_cmd_opts *c;
	struct rtm_getopt *g;
	size_t nlong, nshort;
};

/* How the short option @key takes a value: optional when any row of it does, else all agree. */
static int short_arg(const struct rtm_cmd_opts *c, int key, int *has_arg)
{
	const struct rtm_opt *o;
	int t, seen = -1;
	bool optional = false;

	for (t = 0; t < RTM_OPT_TABLES && c->tables[t]; t++) {
		for (o = c->tables[t]; o->name || o->key; o++) {
			if (o->key != key)
				continue;
			optional |= o->has_arg == optional_argument;
			if (o->has_arg != optional_argument && seen >= 0 && seen != o->has_arg)
				return -EINVAL;
			if (o->has_arg != optional_argument)
				seen = o->has_arg;
		}
	}
	*has_arg = optional ? optional_argument : seen < 0 ? no_argument : seen;
	return 0;
}

static int add_short(struct build *b, int key)
{
	char *s = b->g->shortopts;
	int has_arg, ret;

	if (memchr(s, key, b->nshort))
		return 0;
	if (b->nshort + 3 >= sizeof(b->g->shortopts))
		return -E2BIG;
	ret = short_arg(b->c, key, &has_arg);
	if (ret)
		return ret;
	s[b->nshort++] = (char)key;
	if (has_arg != no_argument)
		s[b->nshort++] = ':';
	if (has_arg == optional_argument)
		s[b->nshort++] = ':';
	s[b->nshort] = '\0';
	return 0;
}

static int add_row(const struct rtm_opt *o, void *ctx)
{
	struct build *b = ctx;
	size_t i;

	if (o->key <= 0 || (o->key < RTM_OPT_KEY0 && (!isgraph(o->key) || o->key == ':' ||
						     o->key == '-' || o->key == ';')))
		return -EINVAL;
	if (o->has_arg != no_argument && o->has_arg != required_argument &&
	    o->has_arg != optional_argument)
		return -EINVAL;
	if (is_short(o->key)) {
		int ret = add_short(b, o->key);

		if (ret)
			return ret;
	}
	if (!o->name)
		return 0;
	for (i = 0; i < b->nlong; i++)
		if (!strcmp(b->g->longopts[i].name, o->name))
			return -EINVAL;
	if (b->nlong >= RTM_OPTS_MAX)
		return -E2BIG;
	b->g->longopts[b->nlong++] = (struct option){ o->name, o->has_arg, NULL, o->key };
	return 0;
}

int rtm_opts_getopt(const struct rtm_cmd_opts *c, struct rtm_getopt *g)
{
	struct build b = { c, g, 0, 0 };

	memset(g, 0, sizeof(*g));
	return each_row(c, add_row, &b);
}

/* ---------------------------------------------------------------- help */

/* "  -o, --output FILE" or "      --follow": the row's name part, its width returned. */
static int row_left(const struct rtm_cmd_opts *c, const struct rtm_opt *o, char *buf,
		    size_t len)
{
	char arg[64] = "";
	bool first = rtm_opts_find(c, o->key) == o;

	if (o->arg && o->has_arg == required_argument)
		snprintf(arg, sizeof(arg), " %s", o->arg);
	else if (o->arg && o->has_arg == optional_argument)
		snprintf(arg, sizeof(arg), o->arg[0] == '[' ? " %s" : "[=%s]", o->arg);
	if (is_short(o->key) && first && o->name)
		snprintf(buf, len, "  -%c, --%s%s", o->key, o->name, arg);
	else if (is_short(o->key) && first)
		snprintf(buf, len, "  -%c%s", o->key, arg);
	else
		snprintf(buf, len, "      --%s%s", o->name ? o->name : "?", arg);
	return (int)strlen(buf);
}

static bool listed(const struct rtm_opt *o)
{
	return o->group != RTM_OPT_HIDDEN;
}

struct column {
	const struct rtm_cmd_opts *c;
	int width;
};

static int widest(const struct rtm_opt *o, void *ctx)
{
	struct column *w = ctx;
	char left[128];
	int n;

	if (!listed(o))
		return 0;
	n = row_left(w->c, o, left, sizeof(left));
	if (n <= LEFT_MAX && n > w->width)
		w->width = n;
	return 0;
}

static void pad(FILE *f, int from, int to)
{
	for (; from < to; from++)
		fputc(' ', f);
}

/*
 * @text wrapped into lines ending before HELP_WIDTH, each from column @col;
 * the cursor is at @pos (past the option's name). '\n' in @text starts a line.
 */
static void wrap(FILE *f, const char *text, int pos, int col)
{
	bool fresh = true;	/* nothing written on this line yet */
	size_t n;

	if (pos + 2 > col && pos > 0) {
		fputc('\n', f);
		pos = 0;
	}
	pad(f, pos, col);
	pos = col;
	while (*text) {
		if (*text == ' ') {
			text++;
			continue;
		}
		if (*text == '\n') {
			fputc('\n', f);
			pad(f, 0, col);
			pos = col;
			fresh = true;
			text++;
			continue;
		}
		n = strcspn(text, " \n");
		if (!fresh && pos + 1 + (int)n >= HELP_WIDTH) {
			fputc('\n', f);
			pad(f, 0, col);
			pos = col;
			fresh = true;
		}
		if (!fresh) {
			fputc(' ', f);
			pos++;
		}
		fwrite(text, 1, n, f);
		pos += (int)n;
		text += n;
		fresh = false;
	}
	fputc('\n', f);
}

struct printer {
	const struct rtm_cmd_opts *c;
	FILE *f;
	int group, col;
	int rows;		/* rows printed (or counted) */
	int options;		/* of them, options of their own (not aliases) */
};

static int print_row(const struct rtm_opt *o, void *ctx)
{
	struct printer *p = ctx;
	const struct rtm_opt *first;
	char left[128], same[80];
	int n;

	if (o->group != p->group || !listed(o))
		return 0;
	p->rows++;
	p->options += o->help != NULL;
	if (!p->f)
		return 0;
	n = row_left(p->c, o, left, sizeof(left));
	fputs(left, p->f);
	if (o->help) {
		wrap(p->f, o->help, n, p->col);
		return 0;
	}
	first = rtm_opts_find(p->c, o->key);
	if (first && first->name && first != o)
		snprintf(same, sizeof(same), "the same as --%s", first->name);
	else if (first && first != o)
		snprintf(same, sizeof(same), "the same as -%c", first->key);
	else
		same[0] = '\0';
	wrap(p->f, same, n, p->col);
	return 0;
}

/* Rows of group @g listed in the help (*@options: not aliases); printed when @f is given. */
static int print_group(const struct rtm_cmd_opts *c, FILE *f, size_t g, int col, int *options)
{
	struct printer p = { c, f, (int)g, col, 0, 0 };

	each_row(c, print_row, &p);
	if (options)
		*options = p.options;
	return p.rows;
}

/* The line of --help that names what --help-all adds; nothing when it adds nothing. */
static void more_note(const struct rtm_cmd_opts *c, FILE *f)
{
	char titles[400] = "", note[512];
	size_t g, len = 0;
	int more = 0, n;

	for (g = 0; g < c->ngroups; g++) {
		if (c->groups[g].common || !print_group(c, NULL, g, 0, &n))
			continue;
		if (len < sizeof(titles))
			len += (size_t)snprintf(titles + len, sizeof(titles) - len, "%s%s",
						more ? "; " : "", c->groups[g].title ?
						c->groups[g].title : "other options");
		more += n;
	}
	if (!more)
		return;
	snprintf(note, sizeof(note), "rtmeasure %s --help-all lists %d more option%s: %s.",
		 c->command, more, more == 1 ? "" : "s", titles);
	fputc('\n', f);
	wrap(f, note, 0, 0);
}

/* Group @g with its title, after a blank line; nothing when it lists no row. */
static void print_titled(const struct rtm_cmd_opts *c, FILE *f, size_t g, int col)
{
	if (!print_group(c, NULL, g, col, NULL))
		return;
	fputc('\n', f);
	if (c->groups[g].title)
		fprintf(f, "%s:\n", c->groups[g].title);
	print_group(c, f, g, col, NULL);
}

int rtm_opts_help(const struct rtm_cmd_opts *c, FILE *f, bool all)
{
	struct column w = { c, 0 };
	size_t g;

	each_row(c, widest, &w);
	fputs(c->usage, f);
	for (g = 0; g < c->ngroups; g++)
		if (c->groups[g].common)
			print_titled(c, f, g, w.width + 2);
	for (g = 0; all && g < c->ngroups; g++)
		if (!c->groups[g].common)
			print_titled(c, f, g, w.width + 2);
	if (!all)
		more_note(c, f);
	if (c->epilog)
		fputs(c->epilog, f);
	return ferror(f) || fflush(f) ? -EIO : 0;
}
