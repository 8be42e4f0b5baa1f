/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * promhttp - serve /metrics to Prometheus while a run measures
 */
#ifndef RTM_PROMHTTP_H
#define RTM_PROMHTTP_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/error.h"
#include "present/prom.h"

struct rtm_promhttp;

/* Parse "[ADDR:]PORT" (127.0.0.1 unless ADDR is given; "[::1]:PORT" for IPv6). */
int rtm_promhttp_parse(const char *spec, struct sockaddr_storage *ss, struct rtm_error *err);

/**
 * rtm_promhttp_start - listen on @spec and serve GET /metrics
 * @cpus: the CPUs the server thread may run on (the ones not measured), or
 *        NULL to inherit the caller's
 * @t: target labels
 *
 * Text format 0.0.4 by default, OpenMetrics 1.0 when the Accept header asks
 * for application/openmetrics-text. Fails (NULL, @err) when the address
 * cannot be bound, before anything is measured.
 */
struct rtm_promhttp *rtm_promhttp_start(const char *spec, const cpu_set_t *cpus,
					const struct rtm_prom_target *t, struct rtm_error *err);

/*
 * The figures the next scrapes show (copied, run->disturbed and the JSON
 * sections of @run too). Returns 0 or -ENOMEM.
 */
int rtm_promhttp_publish(struct rtm_promhttp *s, const struct rtm_prom_cpu *cpus, int n,
			 const struct rtm_prom_run *run);

/* The target labels of the next scrapes (those of a result, once there is one). */
void rtm_promhttp_set_target(struct rtm_promhttp *s, const struct rtm_prom_target *t);

unsigned int rtm_promhttp_port(const struct rtm_promhttp *s);
/* False when @spec asks for port 0 (any free port). */
bool rtm_promhttp_port_given(const char *spec);
uint64_t rtm_promhttp_scrapes(struct rtm_promhttp *s);
void rtm_promhttp_stop(struct rtm_promhttp *s);

#endif
