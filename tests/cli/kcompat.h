/* SPDX-License-Identifier: MIT */
/*
 * The kernel's cacheline macros as include/linux/cache.h (v6.8+) defines
 * them for an x86-64 SMP build (L1_CACHE_BYTES = SMP_CACHE_BYTES = 64,
 * INTERNODE_CACHE_SHIFT = 6), for compiling structlint's emitted
 * declarations outside a kernel tree (tests: compile-and-check).
 */
#ifndef STRUCTLINT_KCOMPAT_H
#define STRUCTLINT_KCOMPAT_H
#include <assert.h>
#include <stddef.h>

/* include/linux/build_bug.h: static_assert() with an optional message */
#undef static_assert
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)

typedef unsigned char __u8;
#define SMP_CACHE_BYTES 64
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_internodealigned_in_smp __attribute__((__aligned__(1 << 6)))
struct cacheline_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name) struct cacheline_padding name
#define __cacheline_group_begin(GROUP) __u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) __u8 __cacheline_group_end__##GROUP[0]
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) \
	BUILD_BUG_ON(!(offsetof(TYPE, MEMBER) >= \
		       offsetofend(TYPE, __cacheline_group_begin__##GROUP) && \
		       offsetofend(TYPE, MEMBER) <= \
		       offsetof(TYPE, __cacheline_group_end__##GROUP)))
#endif
