/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grow.h - the one grow-by-doubling step of lib/'s arrays.
 */
#ifndef RTM_GROW_H
#define RTM_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/**
 * rtm_grow - make room for element @n of a doubling array
 * @arr: the array (NULL when @cap is 0)
 * @cap: its capacity in elements: @first when 0, doubled when @n reaches it
 * @n: elements in use
 * @size: bytes of one element
 * @first: capacity of a new array
 *
 * Returns the array, realloc()ed when it had no room for element @n, or NULL
 * when out of memory: then @arr is still valid and @cap unchanged.
 *
 *	np = rtm_grow(a->items, &a->cap, a->n, sizeof(*a->items), 64);
 *	if (!np)
 *		return -ENOMEM;
 *	a->items = np;
 */
static inline void *rtm_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t c;
	void *np;

	if (n < *cap)
		return arr;
	c = *cap ? *cap * 2 : first;
	if (c <= n || c > SIZE_MAX / size)
		return NULL;
	np = realloc(arr, c * size);
	if (np)
		*cap = c;
	return np;
}

#endif
