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
 *
 * Slow clients cannot silence the page either: a request must be complete
 * REQUEST_DEADLINE_MS after its connection was accepted (or after the answer
 * before it on a kept-alive connection), whatever it trickles meanwhile; and
 * when a new connection finds every slot (or its address's share) taken, the
 * oldest connection still sending its request gives way, so a scraper, whose
 * request takes a millisecond, always gets through. A reaper thread ends late
 * requests; connections are ended by shutdown(2) of a socket that is still
 * tracked under the lock the close notification takes, never of a reused
 * descriptor.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/socket.h>
#include <time.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "core/clock.h"
#include "present/promhttp.h"

#define MAX_CONNECTIONS		16
#define MAX_PER_IP		8
#define IDLE_TIMEOUT_S		5
#define REQUEST_MEMORY		(16 * 1024)	/* request line + headers */
#define REQUEST_DEADLINE_MS	5000		/* from accept to a complete request */
/* MHD's own limits sit above ours: a new connection must reach us to evict a slow one */
#define MHD_CONNECTIONS		(2 * MAX_CONNECTIONS)

/* A connection, from accept to close; "pending" while its request is incomplete. */
struct conn_slot {
	bool used;
	bool pending;
	bool ended;			/* shut down by us; closing */
	int fd;
	uint64_t since_ms;		/* accepted, or its last answer sent */
	struct sockaddr_storage addr;
};

struct rtm_promhttp {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	pthread_mutex_t conn_lock;	/* the slots; held while a socket is shut down */
	pthread_cond_t reap_cond;
	uint64_t reap_at_ms;		/* the reaper's next wake-up, 0: none (conn_lock) */
	pthread_t reaper;
	bool reaper_started, stopping;
	struct conn_slot conns[MHD_CONNECTIONS];
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

static bool same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr));
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

/* End @c (conn_lock held): libmicrohttpd sees the end of the stream and closes it. */
static void end_conn(struct conn_slot *c)
{
	if (!c->ended)
		shutdown(c->fd, SHUT_RDWR);
	c->ended = true;
}

/*
 * A new connection @fresh over the limits (conn_lock held): the oldest other
 * connection of its address (over MAX_PER_IP) or of all (over MAX_CONNECTIONS)
 * gives way, one still sending its request first.
 */
static void make_room(struct rtm_promhttp *s, const struct conn_slot *fresh)
{
	struct conn_slot *victim = NULL;
	int i, total = 0, same = 0;
	bool per_ip;

	for (i = 0; i < MHD_CONNECTIONS; i++) {
		const struct conn_slot *c = &s->conns[i];

		if (!c->used || c->ended)
			continue;
		total++;
		same += same_address(&c->addr, &fresh->addr);
	}
	per_ip = same > MAX_PER_IP;
	if (!per_ip && total <= MAX_CONNECTIONS)
		return;
	for (i = 0; i < MHD_CONNECTIONS; i++) {
		struct conn_slot *c = &s->conns[i];

		if (!c->used || c->ended || c == fresh ||
		    (per_ip && !same_address(&c->addr, &fresh->addr)))
			continue;
		if (!victim || (c->pending && !victim->pending) ||
		    (c->pending == victim->pending && c->since_ms < victim->since_ms))
			victim = c;
	}
	if (victim)
		end_conn(victim);
}

/* A connection starts waiting for its request (conn_lock held): the reaper told if idle. */
static void reap_watch(struct rtm_promhttp *s)
{
	if (!s->reap_at_ms)
		pthread_cond_signal(&s->reap_cond);
}

/* libmicrohttpd's connection notices: a slot from accept to close. */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct rtm_promhttp *s = cls;
	struct conn_slot *c = *socket_context;
	const union MHD_ConnectionInfo *fd, *addr;
	int i;

	pthread_mutex_lock(&s->conn_lock);
	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (c)
			c->used = false;	/* before libmicrohttpd closes the socket */
		*socket_context = NULL;
		goto out;
	}
	fd = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	addr = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	for (i = 0; i < MHD_CONNECTIONS && s->conns[i].used; i++)
		;
	if (!fd || i == MHD_CONNECTIONS)	/* cannot be: its limit is our slot count */
		goto out;
	c = &s->conns[i];
	memset(c, 0, sizeof(*c));
	c->used = c->pending = true;
	c->fd = fd->connect_fd;
	c->since_ms = rtm_clock_ms(CLOCK_MONOTONIC);
	if (addr && addr->client_addr && addr->client_addr->sa_family == AF_INET6)
		memcpy(&c->addr, addr->client_addr, sizeof(struct sockaddr_in6));
	else if (addr && addr->client_addr && addr->client_addr->sa_family == AF_INET)
		memcpy(&c->addr, addr->client_addr, sizeof(struct sockaddr_in));
	*socket_context = c;
	make_room(s, c);
	reap_watch(s);
out:
	pthread_mutex_unlock(&s->conn_lock);
}

/* The connection of @conn has its request (@pending false) or starts waiting for the next. */
static void set_pending(struct rtm_promhttp *s, struct MHD_Connection *conn, bool pending)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn_slot *c = ci ? ci->socket_context : NULL;

	if (!c)
		return;
	pthread_mutex_lock(&s->conn_lock);
	c->pending = pending;
	c->since_ms = rtm_clock_ms(CLOCK_MONOTONIC);
	if (pending)
		reap_watch(s);
	pthread_mutex_unlock(&s->conn_lock);
}

/* A request answered: a kept-alive connection has REQUEST_DEADLINE_MS for its next. */
static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)req_cls;
	(void)toe;
	set_pending(cls, conn, true);
}

/* The reaper's wake-up condition, on the monotonic clock; 0 or an error number. */
static int init_reap_cond(struct rtm_promhttp *s)
{
	pthread_condattr_t ca;
	int ret;

	ret = pthread_condattr_init(&ca);
	if (ret)
		return ret;
	ret = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&s->reap_cond, &ca);
	pthread_condattr_destroy(&ca);
	return ret;
}

/* A connection's deadline passed; until then the reaper sleeps (0: nothing pending). */
static uint64_t reap_due(struct rtm_promhttp *s, uint64_t now)
{
	uint64_t next = 0;
	int i;

	for (i = 0; i < MHD_CONNECTIONS; i++) {
		struct conn_slot *c = &s->conns[i];

		if (!c->used || !c->pending || c->ended)
			continue;
		if (now - c->since_ms >= REQUEST_DEADLINE_MS)
			end_conn(c);
		else if (!next || c->since_ms + REQUEST_DEADLINE_MS < next)
			next = c->since_ms + REQUEST_DEADLINE_MS;
	}
	return next;
}

/*
 * The reaper: ends every request not complete REQUEST_DEADLINE_MS after it
 * started. It wakes at the earliest deadline, or when a connection starts
 * waiting and it had none: never on a period, as it may share a measured CPU.
 */
static void *reaper(void *arg)
{
	struct rtm_promhttp *s = arg;
	struct timespec until;

	pthread_mutex_lock(&s->conn_lock);
	while (!s->stopping) {
		s->reap_at_ms = reap_due(s, rtm_clock_ms(CLOCK_MONOTONIC));
		if (!s->reap_at_ms) {
			pthread_cond_wait(&s->reap_cond, &s->conn_lock);
			continue;
		}
		until.tv_sec = (time_t)(s->reap_at_ms / 1000);
		until.tv_nsec = (long)(s->reap_at_ms % 1000) * 1000000L;
		pthread_cond_timedwait(&s->reap_cond, &s->conn_lock, &until);
	}
	pthread_mutex_unlock(&s->conn_lock);
	return NULL;
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
		set_pending(cls, conn, false);
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
	pthread_mutex_init(&s->conn_lock, NULL);
	if (init_reap_cond(s)) {
		rtm_error_set(err, "--prometheus: out of resources for the server's timer");
		pthread_mutex_destroy(&s->conn_lock);
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
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
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MHD_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQUEST_MEMORY,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_END);
	if (s->d)
		s->reaper_started = !pthread_create(&s->reaper, NULL, reaper, s);
	if (moved)
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	if (s->d && !s->reaper_started) {
		MHD_stop_daemon(s->d);
		s->d = NULL;
	}
	if (!s->d) {
		rtm_error_set(err, "--prometheus %s: cannot listen there (port in use, or an "
			      "address this box does not have): pick another with --prometheus "
			      "[ADDR:]PORT", spec);
		pthread_cond_destroy(&s->reap_cond);
		pthread_mutex_destroy(&s->conn_lock);
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
	json_decref((json_t *)s->run.wakeup);
	json_decref((json_t *)s->run.io);
	s->run = *run;
	s->run.irq = run->irq ? json_deep_copy(run->irq) : NULL;
	s->run.noise = run->noise ? json_deep_copy(run->noise) : NULL;
	s->run.timer_irq = run->timer_irq ? json_deep_copy(run->timer_irq) : NULL;
	s->run.wakeup = run->wakeup ? json_deep_copy(run->wakeup) : NULL;
	s->run.io = run->io ? json_deep_copy(run->io) : NULL;
	if (run->disturbed) {
		s->disturbed = *run->disturbed;
		s->run.disturbed = &s->disturbed;
	}
	s->published = true;
out:
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void rtm_promhttp_set_target(struct rtm_promhttp *s, const struct rtm_prom_target *t)
{
	pthread_mutex_lock(&s->lock);
	s->target = *t;
	pthread_mutex_unlock(&s->lock);
}

void rtm_promhttp_stop(struct rtm_promhttp *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->conn_lock);
	s->stopping = true;
	pthread_cond_signal(&s->reap_cond);
	pthread_mutex_unlock(&s->conn_lock);
	if (s->reaper_started)
		pthread_join(s->reaper, NULL);
	MHD_stop_daemon(s->d);
	pthread_cond_destroy(&s->reap_cond);
	pthread_mutex_destroy(&s->conn_lock);
	json_decref((json_t *)s->run.irq);
	json_decref((json_t *)s->run.noise);
	json_decref((json_t *)s->run.timer_irq);
	json_decref((json_t *)s->run.wakeup);
	json_decref((json_t *)s->run.io);
	pthread_mutex_destroy(&s->lock);
	free(s->cpus);
	free(s);
}
