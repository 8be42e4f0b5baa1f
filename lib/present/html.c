// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * html.c - HTML pieces: escaping, the page frame with its style sheet,
 * and images embedded in the page (base64 PNG, inline SVG).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "present/html.h"

void rtm_html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void rtm_md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

void rtm_html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	rtm_html_text(f, title);
	fputs("</title>\n<style>\n"
	      "body { font: 15px/1.45 system-ui, 'DejaVu Sans', sans-serif; color: #222;"
	      " max-width: 1100px; margin: 2em auto; padding: 0 1em; }\n"
	      "h1 { font-size: 1.6em; margin-bottom: .2em; }\n"
	      "h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: .2em;"
	      " margin-top: 2em; }\n"
	      ".sub { color: #666; margin-top: 0; }\n"
	      "table { border-collapse: collapse; margin: .5em 0 1em; font-variant-numeric:"
	      " tabular-nums; }\n"
	      "th, td { padding: .25em .7em; border-bottom: 1px solid #e5e5e5; text-align: right; }\n"
	      "th { background: #f5f7fa; font-weight: 600; }\n"
	      "td.l, th.l { text-align: left; }\n"
	      "td.wrap { overflow-wrap: anywhere; }\n"
	      "tr.all td { font-weight: 600; border-top: 2px solid #bbb; }\n"
	      ".ok { color: #1a7f37; } .warn { color: #b35900; font-weight: 600; }"
	      " .info { color: #555; } .bad { color: #c62828; font-weight: 600; }\n"
	      "figure { margin: 1em 0; } figure img, figure svg { max-width: 100%; height: auto;"
	      " border: 1px solid #eee; }\n"
	      "figcaption { color: #555; font-size: .9em; }\n"
	      ".verdict { background: #fafafa; border-left: 4px solid #d62728; padding: .5em .8em;"
	      " margin: .5em 0; }\n"
	      "code { background: #f3f3f3; padding: 0 .3em; border-radius: 3px; }\n"
	      "</style>\n</head>\n<body>\n", f);
}

void rtm_html_end(FILE *f)
{
	fputs("<p class=\"sub\">Made by rtmeasure from result.json; plots drawn by gnuplot.</p>\n"
	      "</body>\n</html>\n", f);
}

/* base64 (RFC 4648) of @len bytes; we write it here, a few lines, no library needed. */
static void base64(FILE *f, const unsigned char *p, size_t len)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		fputc(a[p[i] >> 2], f);
		fputc(a[((p[i] & 3) << 4) | (p[i + 1] >> 4)], f);
		fputc(a[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)], f);
		fputc(a[p[i + 2] & 63], f);
	}
	if (len - i == 1) {
		fputc(a[p[i] >> 2], f);
		fputc(a[(p[i] & 3) << 4], f);
		fputs("==", f);
	} else if (len - i == 2) {
		fputc(a[p[i] >> 2], f);
		fputc(a[((p[i] & 3) << 4) | (p[i + 1] >> 4)], f);
		fputc(a[(p[i + 1] & 15) << 2], f);
		fputc('=', f);
	}
}

int rtm_html_image(FILE *f, const char *path, const char *alt)
{
	size_t len, plen = strlen(path);
	char *data = rtm_read_all("/", path, &len), *svg;

	if (!data)
		return -errno;
	if (plen > 4 && !strcmp(path + plen - 4, ".svg")) {
		/* inline: skip the XML prolog and doctype, keep the <svg> element */
		svg = strstr(data, "<svg");
		fputs("<figure>", f);
		fputs(svg ? svg : data, f);
	} else {
		fputs("<figure><img alt=\"", f);
		rtm_html_text(f, alt);
		fputs("\" src=\"data:image/png;base64,", f);
		base64(f, (const unsigned char *)data, len);
		fputs("\">", f);
	}
	fputs("<figcaption>", f);
	rtm_html_text(f, alt);
	fputs("</figcaption></figure>\n", f);
	free(data);
	return 0;
}
