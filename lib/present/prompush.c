// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prompush.c - send a metrics page to a Prometheus Pushgateway (libcurl)
 */
#include <errno.h>
#include <string.h>

#include <curl/curl.h>

#include "present/prom.h"

struct answer {
	char text[256];
	size_t len;
};

/* keep the start of the gateway's answer for the error message */
static size_t keep(char *data, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;
	size_t len = size * n, room = sizeof(a->text) - 1 - a->len;

	memcpy(a->text + a->len, data, len < room ? len : room);
	a->len += len < room ? len : room;
	a->text[a->len] = '\0';
	return len;
}

int rtm_prom_push(const char *url, const char *job, const char *instance, const char *body,
		  size_t len, struct rtm_error *err)
{
	struct answer a = { "", 0 };
	struct curl_slist *hdr = NULL;
	char *ejob = NULL, *einst = NULL, *full = NULL, *nl;
	long status = 0;
	size_t ulen = strlen(url);
	CURLcode rc;
	CURL *c;
	int ret = -EIO;

	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return rtm_error_setn(err, -EIO, "cannot start libcurl");
	c = curl_easy_init();
	if (!c)
		goto out;
	ejob = curl_easy_escape(c, job, 0);
	einst = curl_easy_escape(c, instance, 0);
	while (ulen && url[ulen - 1] == '/')
		ulen--;
	if (!ejob || !einst ||
	    asprintf(&full, "%.*s/metrics/job/%s/instance/%s", (int)ulen, url, ejob, einst) < 0) {
		full = NULL;
		rtm_error_set(err, "out of memory");
		goto out;
	}
	hdr = curl_slist_append(hdr, "Content-Type: " RTM_PROM_CT_TEXT);
	curl_easy_setopt(c, CURLOPT_URL, full);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		rtm_error_set(err, "cannot push to %s: %s", full, curl_easy_strerror(rc));
		goto out;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status < 200 || status >= 300) {
		if ((nl = strchr(a.text, '\n')))
			*nl = '\0';
		rtm_error_set(err, "the Pushgateway at %s refused the push: HTTP %ld%s%s", full,
			      status, a.text[0] ? ": " : "", a.text);
		goto out;
	}
	ret = 0;
out:
	if (!c)
		rtm_error_set(err, "cannot start libcurl");
	curl_slist_free_all(hdr);
	free(full);
	curl_free(ejob);
	curl_free(einst);
	if (c)
		curl_easy_cleanup(c);
	curl_global_cleanup();
	return ret;
}
