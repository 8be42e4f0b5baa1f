// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * promhttp.c - a /metrics endpoint for Prometheus during a run (libmicrohttpd)
 *
 * The command publishes reduced figures (struct rtm_prom_cpu, a few hundred
 * bytes a CPU) at each interval boundary; a scrape formats the latest ones
 * under a mutex that only the command's main thread and the server thread
 * take, never a probe. One server thread (libmicrohttpd's internal polling
 * thread, SCHED_OTHER) placed on the CPUs it is given, a bounded number of
 * connections, a bounded request size and an idle timeout: slow or malformed
 * clients cost neither the probes nor memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "present/promhttp.h"

#define MAX_CONNECTIONS		16
#define MAX_PER_IP		8
#define IDLE_TIMEOUT_S		5
#define REQUEST_MEMORY		(16 * 1024)	/* request line + headers */

struct rtm_promhttp {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct rtm_prom_target target;
	struct rtm_prom_cpu *cpus;	/* latest published figures */
	int ncpus, cap;
	struct rtm_prom_run run;
	struct rtm_disturbances disturbed;	/* run.disturbed points here */
	bool published;
	unsigned int port;
	atomic_uint_fast64_t scrapes;
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *type, char *body, size_t len, bool must_free)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, must_free ? MHD_RESPMEM_MUST_FREE :
					    MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (must_free)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* The page for one scrape, in the format the Accept header asks for. */
static enum MHD_Result metrics(struct rtm_promhttp *s, struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	enum rtm_prom_format fmt = accept && strstr(accept, "application/openmetrics-text") ?
				   RTM_PROM_OPENMETRICS : RTM_PROM_TEXT;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return MHD_NO;
	pthread_mutex_lock(&s->lock);
	ret = s->published ? rtm_prom_write(f, fmt, &s->target, s->cpus, s->ncpus, &s->run) : 0;
	pthread_mutex_unlock(&s->lock);
	if (fclose(f) || ret) {
		free(buf);
		return MHD_NO;
	}
	atomic_fetch_add(&s->scrapes, 1);
	return reply(conn, MHD_HTTP_OK, fmt == RTM_PROM_OPENMETRICS ? RTM_PROM_CT_OPENMETRICS :
		     RTM_PROM_CT_TEXT, buf, len, true);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	static int seen;
	static char not_found[] = "rtmeasure serves /metrics only\n";
	static char not_allowed[] = "GET or HEAD only\n";

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", not_allowed,
			     sizeof(not_allowed) - 1, false);
	/* first call: headers only; a body sent with a GET is dropped unread */
	if (!*req_cls) {
		*req_cls = &seen;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", not_found,
			     sizeof(not_found) - 1, false);
	return metrics(cls, conn);
}

/* "[ADDR:]PORT", "[::1]:PORT": address 127.0.0.1 unless one is given */
int rtm_promhttp_parse(const char *spec, struct sockaddr_storage *ss, struct rtm_error *err)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[128] = "127.0.0.1";
	const char *colon = strrchr(spec, ':'), *port_s = spec;
	char *end;
	unsigned long port;

	memset(ss, 0, sizeof(*ss));
	if (colon) {
		size_t n = (size_t)(colon - spec);

		if (n && spec[0] == '[' && spec[n - 1] == ']') {
			spec++;
			n -= 2;
		}
		if (!n || n >= sizeof(host))
			return rtm_error_set(err, "--prometheus %s: give [ADDR:]PORT, e.g. 9101 "
					     "or 0.0.0.0:9101", spec);
		memcpy(host, spec, n);
		host[n] = '\0';
		port_s = colon + 1;
	}
	errno = 0;
	port = strtoul(port_s, &end, 10);
	if (errno || end == port_s || *end || port > 65535 || (port == 0 && strcmp(port_s, "0")))
		return rtm_error_set(err, "--prometheus: '%s' is not a port (1-65535)", port_s);
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
	} else {
		return rtm_error_set(err, "--prometheus: '%s' is not an IPv4 or IPv6 address "
				     "(give a numeric address, e.g. 0.0.0.0 for every interface)",
				     host);
	}
	return 0;
}

struct rtm_promhttp *rtm_promhttp_start(const char *spec, const cpu_set_t *cpus,
					const struct rtm_prom_target *t, struct rtm_error *err)
{
	struct sockaddr_storage ss;
	struct rtm_promhttp *s;
	const union MHD_DaemonInfo *info;
	cpu_set_t saved;
	bool moved = false;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;

	if (rtm_promhttp_parse(spec, &ss, err))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->target = *t;
	s->run.trace_lost = s->run.spikes_captured = -1;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the server thread inherits this thread's CPUs: give it @cpus meanwhile */
	if (cpus && CPU_COUNT(cpus) &&
	    !pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) &&
	    !pthread_setaffinity_np(pthread_self(), sizeof(*cpus), cpus))
		moved = true;
	s->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, s,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)MAX_PER_IP,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQUEST_MEMORY,
				MHD_OPTION_END);
	if (moved)
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	if (!s->d) {
		rtm_error_set(err, "--prometheus %s: cannot listen there (port in use, or an "
			      "address this box does not have): pick another with --prometheus "
			      "[ADDR:]PORT", spec);
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
	info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : 0;
	return s;
}

unsigned int rtm_promhttp_port(const struct rtm_promhttp *s)
{
	return s->port;
}

bool rtm_promhttp_port_given(const char *spec)
{
	struct sockaddr_storage ss;

	if (rtm_promhttp_parse(spec, &ss, NULL))
		return true;
	return ((struct sockaddr_in *)&ss)->sin_port != 0;	/* same offset in sockaddr_in6 */
}

uint64_t rtm_promhttp_scrapes(struct rtm_promhttp *s)
{
	return atomic_load(&s->scrapes);
}

int rtm_promhttp_publish(struct rtm_promhttp *s, const struct rtm_prom_cpu *cpus, int n,
			 const struct rtm_prom_run *run)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	if (n > s->cap) {
		struct rtm_prom_cpu *c = realloc(s->cpus, (size_t)n * sizeof(*c));

		if (!c) {
			ret = -ENOMEM;
			goto out;
		}
		s->cpus = c;
		s->cap = n;
	}
	if (n)	/* a noise run publishes no CPU of the timer */
		memcpy(s->cpus, cpus, (size_t)n * sizeof(*cpus));
	s->ncpus = n;
	/* a copy the server thread alone reads (jansson's counts are not atomic) */
	json_decref((json_t *)s->run.irq);
	json_decref((json_t *)s->run.noise);
	json_decref((json_t *)s->run.timer_irq);
	s->run = *run;
	s->run.irq = run->irq ? json_deep_copy(run->irq) : NULL;
	s->run.noise = run->noise ? json_deep_copy(run->noise) : NULL;
	s->run.timer_irq = run->timer_irq ? json_deep_copy(run->timer_irq) : NULL;
	if (run->disturbed) {
		s->disturbed = *run->disturbed;
		s->run.disturbed = &s->disturbed;
	}
	s->published = true;
out:
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void rtm_promhttp_stop(struct rtm_promhttp *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);
	json_decref((json_t *)s->run.irq);
	json_decref((json_t *)s->run.noise);
	json_decref((json_t *)s->run.timer_irq);
	pthread_mutex_destroy(&s->lock);
	free(s->cpus);
	free(s);
}
