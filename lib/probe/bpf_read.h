/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpf_read.h - how the BPF programs read a kernel object's field (BPF side
 * only): RTM_RD(p, field) and RTM_RD_STR(dst, p, field).
 *
 * A raw tracepoint passes its pointers as plain numbers, which a program may
 * not load from: each field read is a call to bpf_probe_read_kernel(), about
 * 10-20 ns here, and sched_wakeup reads four. Built with RTM_BPF_DIRECT, the
 * programs first make the number a read-only pointer of the field's kernel
 * type with the kfunc bpf_rdonly_cast() (Linux 6.2 on; the verifier replaces
 * the call by a move), then load the field as any other memory: one
 * instruction, whose fault (the object is gone) the kernel's exception table
 * turns into a zero, as the helper would. The loader (probe/bpfload.h) builds
 * both objects and loads the direct one where the kernel's BTF has the kfunc.
 * Field offsets are CO-RE relocations in both.
 */
#ifndef RTM_BPF_READ_H
#define RTM_BPF_READ_H

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#ifdef RTM_BPF_DIRECT
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/* @p, a number, as a pointer the verifier lets the program load through */
#define RTM_KPTR(p) \
	((typeof(p))bpf_rdonly_cast((const void *)(p), bpf_core_type_id_kernel(typeof(*(p)))))
#define RTM_RD(p, field) (RTM_KPTR(p)->field)
/* a task's comm is always NUL-terminated within its 16 bytes */
#define RTM_RD_STR(dst, p, field) \
	__builtin_memcpy((dst), RTM_KPTR(p)->field, sizeof(RTM_KPTR(p)->field))
#else
#define RTM_RD(p, field) BPF_CORE_READ((p), field)
#define RTM_RD_STR(dst, p, field) BPF_CORE_READ_STR_INTO((dst), (p), field)
#endif

#endif
