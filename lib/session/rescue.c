// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rescue.c - a result the results folder could not take (a full disk at the
 * end of a long run) is not lost: it is kept in memory, the space it needs is
 * named, and it is saved in --fallback-dir or a new folder in $TMPDIR or /tmp.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "result/histfile.h"
#include "result/resultdir.h"
#include "session/session_priv.h"

int rtm_session_histogram_text(const struct rtm_session_opts *m, const struct rtm_result *r,
			       char **text, size_t *len)
{
	FILE *f;
	int ret;

	*text = NULL;
	*len = 0;
	if (!rtm_session_latency_probe(m))
		return 0;	/* histogram.txt is wake-up latency in cyclictest's layout */
	f = open_memstream(text, len);
	if (!f)
		return -ENOMEM;
	ret = m->out.histofall ? rtm_histfile_write_all(r, f, m->out.hist_rows) :
			     rtm_histfile_write(r, f, m->out.hist_rows);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

/* What result.json and histogram.txt take, in KiB rounded up. */
static size_t results_kib(const struct rtm_session_opts *m, const struct rtm_result *r)
{
	json_t *j = rtm_result_to_json(r);
	char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
	size_t bytes = text ? strlen(text) : 0, hlen;
	char *hist;

	free(text);
	json_decref(j);
	if (!rtm_session_histogram_text(m, r, &hist, &hlen))
		bytes += hlen;
	free(hist);
	return (bytes + 1023) / 1024;
}

int rtm_session_check_fallback(const struct rtm_session_opts *m)
{
	const char *fb = m->out.fallback_dir;
	char what[32];
	int fd, ret = 0;

	if (!fb)
		return 0;
	fd = rtm_dir_open(fb, m->out.follow ? RTM_OUT_FOLLOW : 0);
	if (fd == -ENOENT) {	/* made only when it is needed: its folder must take it */
		ret = rtm_target_check(fb, 0);
		return ret < 0 ? rtm_session_fail(m, "%s: --fallback-dir %s: cannot create it: %s",
						  m->command, fb, rtm_write_strerror(ret)) : 0;
	}
	if (fd == -ELOOP)
		return rtm_session_fail(m, "%s: --fallback-dir %s is a symbolic link (give "
					"--follow to write where it points)", m->command, fb);
	if (fd == -ENOTDIR)
		return rtm_session_fail(m, "%s: --fallback-dir %s exists and is not a folder "
					"(give a folder name)", m->command, fb);
	if (fd < 0)
		return rtm_session_fail(m, "%s: --fallback-dir %s: %s", m->command, fb,
					rtm_write_strerror(fd));
	if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0)
		ret = rtm_session_fail(m, "%s: cannot write in --fallback-dir %s: %s", m->command,
				       fb, rtm_write_strerror(-errno));
	else if (rtm_resultdir_find(fd, what, sizeof(what)) && !m->out.force)
		ret = rtm_session_fail(m, "%s: --fallback-dir %s already holds a result (%s): give "
				       "another folder, or --force to replace it", m->command, fb,
				       what);
	close(fd);
	return ret;
}

/* The results into @dir: 0 once result.json is there (histogram.txt is made from it). */
static int save_in(const struct rtm_session_opts *m, const struct rtm_result *r,
		   const char *dir, struct rtm_error *err)
{
	char what[32], path[PATH_MAX], *hist;
	struct stat st;
	bool made = lstat(dir, &st) < 0;
	size_t hlen;
	int fd, ret;

	fd = rtm_dir_open(dir, RTM_OUT_CREATE | (m->out.follow ? RTM_OUT_FOLLOW : 0));
	if (fd < 0)
		return rtm_error_setn(err, fd, "cannot create %s: %s", dir,
				      rtm_write_strerror(fd));
	/* checked before measuring: an earlier result here only with --force */
	ret = m->out.force && rtm_resultdir_find(fd, what, sizeof(what)) ?
	      rtm_resultdir_clear(fd) : 0;
	close(fd);
	if (ret)
		return rtm_error_setn(err, ret, "--force: cannot clear the earlier result in %s: "
				      "%s", dir, rtm_write_strerror(ret));
	ret = rtm_result_save(r, dir, err);
	if (ret) {
		if (made)
			rmdir(dir);	/* only when empty */
		return ret;
	}
	ret = rtm_session_histogram_text(m, r, &hist, &hlen);
	snprintf(path, sizeof(path), "%s/histogram.txt", dir);
	if (!ret && hist)
		ret = rtm_write_atomic(path, hist, hlen);
	free(hist);
	if (ret)	/* result.json holds the histogram too */
		fprintf(m->errf, "rtmeasure: warning: cannot write %s: %s\n", path,
			rtm_write_strerror(ret));
	return 0;
}

int rtm_session_rescue(const struct rtm_session_opts *m, const struct rtm_result *r,
		       const char *dir, char *where, size_t len)
{
	const char *tmpdir = getenv("TMPDIR");
	struct rtm_error err = { "" };
	size_t kib = results_kib(m, r);
	char tmp[PATH_MAX];

	if (m->out.fallback_dir) {
		if (!save_in(m, r, m->out.fallback_dir, &err)) {
			snprintf(tmp, sizeof(tmp), "%s", m->out.fallback_dir);
			goto saved;
		}
		fprintf(m->errf, "rtmeasure: --fallback-dir: %s\n", err.msg);
	}
	snprintf(tmp, sizeof(tmp), "%s/rtmeasure-rescue-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmp)) {	/* 0700: the result is the user's alone */
		rtm_error_setn(&err, -errno, "cannot create a folder in %s: %s",
			       tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
	} else if (!save_in(m, r, tmp, &err)) {
		goto saved;
	} else {
		rmdir(tmp);
	}
	fprintf(m->errf, "rtmeasure: the results need %zu KiB and could not be saved "
		"anywhere (%s): %s\n", kib, err.msg, m->out.json ? "the whole result is in the "
		"JSON on standard output (.result)" : "the table below is all that is left; "
		"--json puts the whole result on standard output");
	return -1;
saved:
	fprintf(m->errf, "rtmeasure: the results need %zu KiB: saved in %s/ instead of %s/ "
		"(rtmeasure report %s for the report)\n", kib, tmp, dir, tmp);
	if (where)
		snprintf(where, len, "%s", tmp);
	return 0;
}
