/* SPDX-License-Identifier: MIT */
/*
 * The slab cost of an object size: the kmalloc size class it lands in and,
 * for a dedicated kmem_cache, SLUB's slab order and objects per slab.
 *
 * Facts, from Linux mm/slub.c and include/linux/slab.h (v6.1 and v6.8+):
 *  - kmalloc_index(): classes 8, 16, 32, 64, 96, 128, 192, 256 ... 8192
 *    (KMALLOC_MAX_CACHE_SIZE = 2 pages: SLUB's KMALLOC_SHIFT_HIGH is
 *    PAGE_SHIFT + 1); larger requests go to the page allocator,
 *    get_order(size) (kmalloc_large()).
 *  - calculate_sizes(): the slab object is the size rounded up to
 *    sizeof(void *), then to the cache's alignment (calculate_alignment()
 *    rounds that up to sizeof(void *) too).  No debug, no ctor, no
 *    SLAB_TYPESAFE_BY_RCU (those move the free pointer out of the object).
 *  - calculate_order(): min_objects = 4 * (fls(nr_cpus) + 1) where nr_cpus
 *    is num_present_cpus() (nr_cpu_ids when that is <= 1), capped by
 *    order_objects(slub_max_order, size); calc_slab_order() returns the
 *    first order from max(slub_min_order, get_order(min_objects * size)) up
 *    to max_order whose leftover (slab % size) is at most slab /
 *    fract_leftover.  The two rules of 6.x kernels are described at enum
 *    slt_slub_rule in include/structlint/advice.h.
 *  - MAX_OBJS_PER_PAGE = 32767; slub_min_order = 0; MAX_ORDER = 11 (6.1),
 *    MAX_PAGE_ORDER = 10 (6.8+): the largest order either accepts is 10.
 *
 * Which cache: the structs the kernel allocates most have a kmem_cache of
 * their own, not a kmalloc size class (kernel/fork.c proc_caches_init():
 * "mm_struct" with ARCH_MIN_MMSTRUCT_ALIGN and SLAB_HWCACHE_ALIGN,
 * fork_init(): "task_struct" aligned to L1_CACHE_BYTES;
 * net/core/sock.c proto_register(): each protocol's sock cache with
 * SLAB_HWCACHE_ALIGN; fs/ext4/super.c init_inodecache() and the other
 * filesystems: their inode caches with align 0 and no SLAB_HWCACHE_ALIGN).
 * The objects per slab and the order are those of such a cache, both
 * sides of a proposal with the same alignment rule
 * (slt_slab_cache_align(): mm/slab_common.c calculate_alignment()); the
 * kmalloc class is what kmalloc() of the same size would take.  Not
 * modelled (the binary does not say): a constructor or
 * SLAB_TYPESAFE_BY_RCU, which put SLUB's free pointer after the object
 * (8 more bytes), debug flags, and a size passed at run time
 * (mm_struct's cpumask tail).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "structlint/advice.h"

#define SLUB_MAX_OBJS_PER_PAGE 32767u
#define SLUB_LARGEST_ORDER 10u /* MAX_ORDER - 1 (6.1), MAX_PAGE_ORDER (6.8+) */
#define SLUB_DEFAULT_MAX_ORDER 3u /* PAGE_ALLOC_COSTLY_ORDER */
#define PTR_BYTES 8u /* sizeof(void *) on the 64-bit targets */

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* fls(): 1-based index of the highest set bit, 0 for 0. */
static unsigned fls_u(unsigned x)
{
	unsigned n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

/* get_order(): smallest order whose slab holds n bytes (n >= 1). */
static unsigned get_order(uint64_t n, uint64_t page)
{
	unsigned order = 0;

	while ((page << order) < n)
		order++;
	return order;
}

static uint64_t order_objects(unsigned order, uint64_t size, uint64_t page)
{
	return (page << order) / size;
}

/* Number of CPUs in a sysfs cpu list ("0-3,8,10-11"); 0 when unreadable. */
static unsigned count_cpulist(const char *path)
{
	char buf[4096];
	unsigned n = 0;
	FILE *f = fopen(path, "r");
	char *p;

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	for (p = buf; *p && *p != '\n';) {
		unsigned long a, b;
		char *end;

		a = strtoul(p, &end, 10);
		if (end == p)
			return 0;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				return 0;
		}
		n += (unsigned)(b - a + 1);
		p = end;
		if (*p == ',')
			p++;
	}
	return n;
}

/* calculate_order()'s nr_cpus on this machine. */
static unsigned machine_cpus(void)
{
	unsigned n = count_cpulist("/sys/devices/system/cpu/present");

	if (n <= 1) {
		unsigned poss = count_cpulist("/sys/devices/system/cpu/possible");
		if (poss)
			n = poss;
	}
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_CONF);
		n = c > 0 ? (unsigned)c : 1;
	}
	return n;
}

/* calc_slab_order(): first order in [min_order, max_order] wasting at most
 * 1/fract of the slab; max_order + 1 when none does. */
static unsigned calc_slab_order(uint64_t size, unsigned min_order,
				unsigned max_order, unsigned fract,
				uint64_t page)
{
	unsigned order;

	for (order = min_order; order <= max_order; order++) {
		uint64_t slab = page << order;

		if (slab % size <= slab / fract)
			break;
	}
	return order;
}

/* v6.1 .. v6.7 */
static int order_6_1(uint64_t size, unsigned min_objects, unsigned max_order,
		     uint64_t page, unsigned *out)
{
	uint64_t max_objects = order_objects(max_order, size, page);
	unsigned order;

	if (min_objects > max_objects)
		min_objects = (unsigned)max_objects;
	/* calc_slab_order()'s guard, with slub_min_order 0 */
	if (order_objects(0, size, page) > SLUB_MAX_OBJS_PER_PAGE) {
		*out = get_order(size * SLUB_MAX_OBJS_PER_PAGE, page) - 1;
		return 0;
	}
	while (min_objects > 1) {
		for (unsigned fract = 16; fract >= 4; fract /= 2) {
			order = calc_slab_order(size,
					get_order(min_objects * size, page),
					max_order, fract, page);
			if (order <= max_order) {
				*out = order;
				return 0;
			}
		}
		min_objects--;
	}
	order = calc_slab_order(size, get_order(size, page), max_order, 1, page);
	if (order <= max_order) {
		*out = order;
		return 0;
	}
	order = calc_slab_order(size, get_order(size, page), SLUB_LARGEST_ORDER,
				1, page);
	if (order <= SLUB_LARGEST_ORDER) {
		*out = order;
		return 0;
	}
	return SLT_EUNSUPPORTED;
}

/* v6.8+ */
static int order_6_8(uint64_t size, unsigned min_objects, unsigned max_order,
		     uint64_t page, unsigned *out)
{
	uint64_t max_objects = order_objects(max_order, size, page);
	unsigned min_order, order;

	if (max_objects < 1)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = (unsigned)max_objects;
	min_order = get_order(min_objects * size, page);
	if (order_objects(min_order, size, page) > SLUB_MAX_OBJS_PER_PAGE) {
		*out = get_order(size * SLUB_MAX_OBJS_PER_PAGE, page) - 1;
		return 0;
	}
	for (unsigned fract = 16; fract > 1; fract /= 2) {
		order = calc_slab_order(size, min_order, max_order, fract, page);
		if (order <= max_order) {
			*out = order;
			return 0;
		}
	}
	order = get_order(size, page);
	if (order <= SLUB_LARGEST_ORDER) {
		*out = order;
		return 0;
	}
	return SLT_EUNSUPPORTED;
}

/* kmalloc_index()'s class for size bytes (size >= 1); 0 above
 * KMALLOC_MAX_CACHE_SIZE (SLUB: KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1, two
 * pages), where kmalloc() calls the page allocator. */
static uint64_t kmalloc_class(uint64_t size, uint64_t page)
{
	uint64_t c = 8;

	if (size > 2 * page)
		return 0;
	if (size > 64 && size <= 96)
		return 96;
	if (size > 128 && size <= 192)
		return 192;
	while (c < size)
		c <<= 1;
	return c;
}

uint32_t slt_slab_cache_align(uint64_t size, uint32_t type_align, unsigned line,
			      unsigned base_align, bool *hwcache)
{
	uint32_t a = type_align ? type_align : 1;

	*hwcache = !base_align || !line || base_align >= line;
	/* the kmem_cache_create() caller's align, which need not be the
	 * type's: the base the user says the instance has */
	if (!*hwcache)
		return base_align;
	/* calculate_alignment(): ralign = cache_line_size(), halved while
	 * the object fits in half of it */
	uint64_t ralign = line;
	while (ralign > 1 && size <= ralign / 2)
		ralign /= 2;
	return ralign > a ? (uint32_t)ralign : a;
}

int slt_slab_cost(uint64_t size, uint32_t align,
		  const struct slt_advice_opts *opts, struct slt_slab_cost *out)
{
	static const struct slt_advice_opts defaults;
	uint64_t page, obj;
	unsigned max_order, cpus, min_objects, order = 0;
	int rc;

	if (!out)
		return SLT_EUSAGE;
	memset(out, 0, sizeof(*out));
	if (!opts)
		opts = &defaults;
	page = opts->page_size ? opts->page_size : 4096;
	max_order = opts->slub_max_order || opts->slub_max_order_set ?
		    opts->slub_max_order : SLUB_DEFAULT_MAX_ORDER;
	if (!size || size > (1ull << 56) || (align && !pow2(align)) ||
	    !pow2(page) || page < 1024 || page > (1u << 20) ||
	    max_order > SLUB_LARGEST_ORDER ||
	    (opts->slub_rule != SLT_SLUB_RULE_6_1 &&
	     opts->slub_rule != SLT_SLUB_RULE_6_8))
		return SLT_EUSAGE;

	cpus = opts->nr_cpus ? opts->nr_cpus : machine_cpus();
	min_objects = 4 * (fls_u(cpus) + 1);
	obj = align_up(align_up(size, PTR_BYTES),
		       align_up(align ? align : 1, PTR_BYTES));
	/* an object larger than SLUB's largest order has no slab cache
	 * (kmem_cache_create fails in calculate_sizes): said, not an error */
	if (obj > (page << SLUB_LARGEST_ORDER))
		rc = SLT_EUNSUPPORTED;
	else if (opts->slub_rule == SLT_SLUB_RULE_6_8)
		rc = order_6_8(obj, min_objects, max_order, page, &order);
	else
		rc = order_6_1(obj, min_objects, max_order, page, &order);
	if (rc == SLT_EUNSUPPORTED) {
		out->no_slab_cache = true;
		order = 0;
		rc = 0;
	}
	if (rc)
		return rc;
	out->kmalloc_class = kmalloc_class(size, page);
	out->page_allocator = !out->kmalloc_class;
	out->page_order = out->page_allocator ? get_order(size, page) : 0;
	out->kmalloc_bytes = out->page_allocator ? page << out->page_order :
			     out->kmalloc_class;
	out->order = order;
	out->object_size = obj;
	out->slab_bytes = out->no_slab_cache ? 0 : page << order;
	out->cache_align = (uint32_t)align_up(align ? align : 1, PTR_BYTES);
	if (!out->no_slab_cache) {
		out->objects_per_slab = (unsigned)order_objects(order, obj, page);
		out->waste_per_slab = (page << order) - out->objects_per_slab * size;
	}
	return 0;
}
