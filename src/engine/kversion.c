/* SPDX-License-Identifier: MIT */
/*
 * What a FILE says about its kernel (engine.h): the version of its
 * linux_banner ("Linux version 6.1.0-57-cloud-amd64 (...)", init/version.c)
 * or of a module's .modinfo vermagic=, the running kernel's for its BTF;
 * and the counters its stats flush visits, from the DWARF array bounds of
 * struct lruvec_stats_percpu and struct memcg_vmstats_percpu.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "engine/engine_int.h"
#include "load/elf.h"

/* "6.1.0-57-cloud-amd64 ..." or "5.15.0-rc1+ ...": 0 when it starts with
 * MAJOR.MINOR. */
static int parse_release(const char *s, size_t n, struct slt_kernel_version *v,
			 const char *source)
{
	char buf[96];
	size_t k = 0;
	while (k < n && k + 1 < sizeof(buf) && s[k] && !isspace((unsigned char)s[k]))
		buf[k] = s[k], k++;
	buf[k] = 0;
	unsigned a = 0, b = 0, c = 0;
	int used = 0;
	if (sscanf(buf, "%u.%u%n", &a, &b, &used) != 2)
		return SLT_ENOTFOUND;
	const char *p = buf + used;
	if (*p == '.')
		c = (unsigned)strtoul(p + 1, NULL, 10);
	const char *rc = strstr(buf, "-rc");
	memset(v, 0, sizeof(*v));
	v->major = a;
	v->minor = b;
	v->patch = c;
	v->rc = rc ? (unsigned)strtoul(rc + 3, NULL, 10) : 0;
	snprintf(v->release, sizeof(v->release), "%s", buf);
	v->source = source;
	return 0;
}

/* The bytes of the allocated section holding [addr, addr + size). */
static const char *at_address(struct slt_elf *e, uint64_t addr, uint64_t size)
{
	for (size_t i = 1; i < slt_elf_nsections(e); i++) {
		const struct slt_elf_section *sh = slt_elf_section(e, i);
		if (!sh->addr || addr < sh->addr || addr - sh->addr >= sh->size ||
		    size > sh->size - (addr - sh->addr))
			continue;
		const uint8_t *d;
		size_t n;
		struct slt_error err;
		if (slt_elf_section_data(e, i, &d, &n, &err) || !d || addr - sh->addr + size > n)
			return NULL;
		return (const char *)d + (addr - sh->addr);
	}
	return NULL;
}

static int from_banner(struct slt_elf *e, struct slt_kernel_version *v)
{
	uint64_t addr, size;
	struct slt_error err;
	static const char pre[] = "Linux version ";
	if (slt_elf_symbol(e, "linux_banner", &addr, &size, &err) || size <= sizeof(pre))
		return SLT_ENOTFOUND;
	const char *s = at_address(e, addr, size);
	if (!s || strncmp(s, pre, sizeof(pre) - 1))
		return SLT_ENOTFOUND;
	return parse_release(s + sizeof(pre) - 1, size - (sizeof(pre) - 1), v, "linux_banner");
}

static int from_modinfo(struct slt_elf *e, struct slt_kernel_version *v)
{
	size_t idx = slt_elf_find_section(e, ".modinfo");
	const uint8_t *d;
	size_t n;
	struct slt_error err;
	if (!idx || slt_elf_section_data(e, idx, &d, &n, &err) || !d)
		return SLT_ENOTFOUND;
	static const char key[] = "vermagic=";
	for (size_t i = 0; i + sizeof(key) - 1 < n;) {
		const char *s = (const char *)d + i;
		size_t len = strnlen(s, n - i);
		if (len > sizeof(key) - 1 && !strncmp(s, key, sizeof(key) - 1))
			return parse_release(s + sizeof(key) - 1, len - (sizeof(key) - 1), v,
					     ".modinfo vermagic");
		i += len + 1;
	}
	return SLT_ENOTFOUND;
}

int slt_kernel_version_read(const char *path, struct slt_kernel_version *v,
			    struct slt_error *err)
{
	if (!path || !strcmp(path, SLT_KERNEL_BTF_PATH)) {
		struct utsname u;
		if (uname(&u))
			return slt_error_set(err, SLT_ENOTFOUND, path, -1, NULL, "uname failed");
		if (parse_release(u.release, sizeof(u.release), v, "uname"))
			return slt_error_set(err, SLT_ENOTFOUND, path, -1, NULL,
					     "release '%s' is not MAJOR.MINOR", u.release);
		return 0;
	}
	struct slt_elf *e;
	int rc = slt_elf_open(path, &e, err);
	if (rc)
		return rc;
	rc = from_banner(e, v);
	if (rc)
		rc = from_modinfo(e, v);
	slt_elf_close(e);
	if (rc)
		return slt_error_set(err, SLT_ENOTFOUND, path, -1,
				     "give --stats-mode 5.15|6.1|mainline",
				     "no kernel version (no linux_banner, no .modinfo vermagic)");
	return 0;
}

/* Elements of member name's array (its size over the element's, from
 * its type "long int[43]"): 0 when there is no such array. */
static uint32_t array_count(const struct slt_struct *s, const char *name)
{
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (m->depth || strcmp(m->name, name) || !m->type)
			continue;
		const char *br = strchr(m->type, '[');
		if (!br || strchr(br + 1, '['))
			return 0;
		unsigned long n = strtoul(br + 1, NULL, 10);
		return n > 0 && n < 100000 ? (uint32_t)n : 0;
	}
	return 0;
}

static uint32_t load_count(const char *path, const struct slt_load_opts *lo,
			   const char *type, const char *member, uint32_t *second,
			   const char *member2)
{
	struct slt_layout *l = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	const char *names[1] = { type };
	if (slt_layout_load(path, names, 1, lo, &l, &err) || !l->n_structs) {
		slt_layout_free(l);
		return 0;
	}
	uint32_t n = array_count(&l->structs[0], member);
	if (second)
		*second = array_count(&l->structs[0], member2);
	slt_layout_free(l);
	return n;
}

int slt_engine_counters_read(const char *path, const struct slt_load_opts *lo,
			     struct slt_engine_counters *c, struct slt_error *err)
{
	uint32_t events = 0;
	uint32_t node = load_count(path, lo, "lruvec_stats_percpu", "state", NULL, NULL);
	uint32_t memcg = load_count(path, lo, "memcg_vmstats_percpu", "state", &events, "events");
	if (!node || !memcg)
		return slt_error_set(err, SLT_ENOTFOUND, path, -1, NULL,
				     "no struct lruvec_stats_percpu / memcg_vmstats_percpu with state[] arrays");
	c->node_items = node;
	c->memcg_items = memcg;
	c->event_items = events;
	c->from_file = true;
	return 0;
}
