/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.h - the HTML helpers (html.c) of report.html and compare.html:
 * escaped text, the page frame with its style sheet, embedded images.
 */
#ifndef RTM_HTML_H
#define RTM_HTML_H

#include <stdio.h>

/* Text with &, <, >, " escaped. */
void rtm_html_text(FILE *f, const char *s);
/* Markdown text: the characters that would format (or end a table cell) escaped. */
void rtm_md_text(FILE *f, const char *s);
/* <!DOCTYPE html> ... <body> with the report's style sheet, and the end. */
void rtm_html_begin(FILE *f, const char *title);
void rtm_html_end(FILE *f);
/*
 * Embed an image file: a PNG as a base64 data: URI, an SVG inline. Nothing is
 * linked, so the page reads offline on its own. Returns 0 or -errno.
 */
int rtm_html_image(FILE *f, const char *path, const char *alt);

#endif
