/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.h - a command's options as data: one table gives getopt_long() its
 * arrays and --help its text.
 *
 * Each option is one row: long name, key (its short option character, or a
 * named constant from RTM_OPT_KEY0 up for a long-only option), whether it
 * takes a value, the value's name in the help ("DUR", "LIST"), its group and
 * its help line. Rows of the same key are aliases of one option (cyclictest's
 * names beside ours). Groups are listed in the order of the command's group
 * array: --help prints the common ones, --help-all every group, the common
 * ones first, so --help is the start of --help-all.
 */
#ifndef RTM_CLI_OPTS_H
#define RTM_CLI_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* First key of the named constants of long-only options (below: short options). */
#define RTM_OPT_KEY0		256
/* The keys of --help and --help-all, the same in every command. */
#define RTM_OPT_HELP		0x4000
#define RTM_OPT_HELP_ALL	0x4001

/* The group of rows getopt_long() takes but --help never lists (refused cyclictest options). */
#define RTM_OPT_HIDDEN		(-1)

struct rtm_opt {
	const char *name;	/* long name; NULL: a short option alone (NULL and key 0 end) */
	int key;		/* short option character, or RTM_OPT_KEY0 and up */
	int has_arg;		/* no_argument, required_argument, optional_argument */
	const char *arg;	/* the value's name in --help: "DUR"; "[N]": may be the next word */
	int group;		/* index in the command's groups, or RTM_OPT_HIDDEN */
	/*
	 * One paragraph, wrapped by the printer ('\n' starts a new line); NULL:
	 * an alias, listed as "the same as" the first row of its key.
	 */
	const char *help;
};

#define RTM_OPT_END		{ NULL, 0, 0, NULL, 0, NULL }

/* --help and --help-all, as rows of a command's table in group @g. */
#define RTM_OPT_HELP_ROWS(g)							\
	{ "help", RTM_OPT_HELP, no_argument, NULL, (g), "this help" },		\
	{ "help-all", RTM_OPT_HELP_ALL, no_argument, NULL, (g),			\
	  "this help with every option" }

struct rtm_opt_group {
	const char *title;	/* a line before the group ("Output:"); NULL: none */
	bool common;		/* listed by --help (the others only by --help-all) */
};

#define RTM_OPT_TABLES	6

/* A command's options: its tables (shared ones and its own) and help texts. */
struct rtm_cmd_opts {
	const char *command;		/* "export": named in the --help-all note */
	const char *usage;		/* usage lines and the description, printed as given */
	const struct rtm_opt_group *groups;
	size_t ngroups;
	const struct rtm_opt *tables[RTM_OPT_TABLES];	/* each ended by RTM_OPT_END */
	const char *epilog;		/* after the options, printed as given; NULL: none */
};

#define RTM_OPTS_MAX	160

/* getopt_long()'s arrays of a command: longopts in table order, ended by a zero row. */
struct rtm_getopt {
	struct option longopts[RTM_OPTS_MAX + 1];
	char shortopts[3 * RTM_OPTS_MAX + 1];
};

/**
 * rtm_opts_getopt - build getopt_long()'s arrays from a command's tables
 * @c: the command's options
 * @g: filled: every row with a long name in table order; each short option
 *     once, in order of first appearance, with ':' for a value and '::' when
 *     one of its rows takes an optional value
 *
 * Return: 0; -E2BIG beyond RTM_OPTS_MAX rows; -EINVAL for a row without key,
 * a key out of range, or a short option whose rows disagree on a value.
 */
int rtm_opts_getopt(const struct rtm_cmd_opts *c, struct rtm_getopt *g);

/**
 * rtm_opts_find - the first row of @key (the one --help lists), or NULL
 * @c: the command's options
 * @key: a key getopt_long() returned
 */
const struct rtm_opt *rtm_opts_find(const struct rtm_cmd_opts *c, int key);

/**
 * rtm_opts_name - how an error names the option of @key
 * @c: the command's options
 * @key: a key getopt_long() returned
 * @buf: "-b/--breaktrace", "-b" or "--fail-above"
 * @len: size of @buf
 *
 * Return: @buf.
 */
const char *rtm_opts_name(const struct rtm_cmd_opts *c, int key, char *buf, size_t len);

/**
 * rtm_opts_help - print a command's help
 * @c: the command's options
 * @f: where to
 * @all: every group (--help-all); else the common ones and a line naming
 *       what --help-all adds
 *
 * The usage text, then per group its title and rows: "  -o, --output FILE"
 * and the help text wrapped to 80 columns in a column of its own (on the
 * next line for a long option name), then the epilog.
 *
 * Return: 0, or -EIO when @f could not be written.
 */
int rtm_opts_help(const struct rtm_cmd_opts *c, FILE *f, bool all);

#endif
