/* SPDX-License-Identifier: MIT */
#include "common/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64u * 1024u)
#define ARENA_ALIGN _Alignof(max_align_t)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	_Alignas(max_align_t) unsigned char data[];
};

struct slt_arena {
	struct chunk *head;
};

struct slt_arena *slt_arena_new(void)
{
	return calloc(1, sizeof(struct slt_arena));
}

void slt_arena_free(struct slt_arena *a)
{
	if (!a)
		return;
	for (struct chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
}

void *slt_arena_alloc(struct slt_arena *a, size_t size)
{
	size_t need = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (need < size)
		return NULL;
	struct chunk *c = a->head;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > ARENA_CHUNK / 4 ? need : ARENA_CHUNK;
		if (cap > SIZE_MAX - sizeof(*c))
			return NULL;
		struct chunk *n = malloc(sizeof(*n) + cap);
		if (!n)
			return NULL;
		n->used = 0;
		n->cap = cap;
		if (c && cap != ARENA_CHUNK) {
			/* Big one-off block: keep the current chunk in front. */
			n->next = c->next;
			c->next = n;
		} else {
			n->next = c;
			a->head = n;
		}
		c = n;
	}
	void *p = c->data + c->used;
	c->used += need;
	memset(p, 0, size);
	return p;
}

void *slt_arena_calloc(struct slt_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return slt_arena_alloc(a, n * size);
}

char *slt_arena_strndup(struct slt_arena *a, const char *s, size_t n)
{
	char *p = slt_arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *slt_arena_strdup(struct slt_arena *a, const char *s)
{
	return s ? slt_arena_strndup(a, s, strlen(s)) : NULL;
}

char *slt_arena_printf(struct slt_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = slt_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
