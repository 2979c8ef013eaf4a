/* SPDX-License-Identifier: MIT */
/* A bump allocator: many small allocations, one free.  Internal. */
#ifndef SLT_ARENA_H
#define SLT_ARENA_H

#include <stddef.h>

struct slt_arena;

/* New empty arena, or NULL when out of memory. */
struct slt_arena *slt_arena_new(void);
/* Free the arena and everything allocated from it.  NULL is a no-op. */
void slt_arena_free(struct slt_arena *a);
/* size bytes, zeroed, aligned for any type; NULL when out of memory. */
void *slt_arena_alloc(struct slt_arena *a, size_t size);
/* n * size bytes, zeroed; NULL on overflow or out of memory. */
void *slt_arena_calloc(struct slt_arena *a, size_t n, size_t size);
/* Copy of s (NULL stays NULL); NULL when out of memory. */
char *slt_arena_strdup(struct slt_arena *a, const char *s);
/* Copy of the first n bytes of s, NUL-terminated. */
char *slt_arena_strndup(struct slt_arena *a, const char *s, size_t n);
/* printf into the arena. */
char *slt_arena_printf(struct slt_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
