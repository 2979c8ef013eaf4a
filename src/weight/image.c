/* SPDX-License-Identifier: MIT */
/*
 * Where the analysed binary was at run time (see structlint/weight.h,
 * "Relocation"): its PT_LOAD segments (ELF gABI, "Program Header"), the
 * perf records that place it (<linux/perf_event.h>: PERF_RECORD_MMAP,
 * PERF_RECORD_MMAP2, PERF_RECORD_FORK, PERF_RECORD_COMM with
 * PERF_RECORD_MISC_COMM_EXEC) and the kernel's "[kernel.kallsyms]_text"
 * mmap that perf record writes with pgoff = the run-time _text
 * (tools/perf/util/synthetic-events.c).  Every record field is checked
 * against the record size.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/elf.h"
#include "samples/perf_data.h"
#include "weight/weight_int.h"

#define KERNEL_SPACE 0xffff800000000000ull

static int load_segments(struct ipw_image *im, const char *path,
			 struct slt_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return slt_error_set(err, SLT_EIO, path, -1, "check the path",
				     "cannot open: %s", strerror(errno));
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	size_t n = 0;
	int rc = 0;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		rc = slt_error_set(err, SLT_ENOTELF, path, 0, "give the ELF program or vmlinux the samples are of",
				   "not an ELF file");
		goto out;
	}
	if (elf_getphdrnum(e, &n) != 0)
		n = 0;
	im->lo = UINT64_MAX;
	im->hi = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr > UINT64_MAX - ph.p_memsz || ph.p_filesz > ph.p_memsz ||
		    ph.p_offset > UINT64_MAX - ph.p_filesz)
			continue;  /* corrupt: never used */
		if (im->n_seg < IPW_MAX_SEGS) {
			im->seg[im->n_seg].vaddr = ph.p_vaddr;
			im->seg[im->n_seg].off = ph.p_offset;
			im->seg[im->n_seg].filesz = ph.p_filesz;
			im->seg[im->n_seg].flags = ph.p_flags;
			im->seg[im->n_seg++].memsz = ph.p_memsz;
		}
		if (ph.p_vaddr < im->lo)
			im->lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > im->hi)
			im->hi = ph.p_vaddr + ph.p_memsz;
	}
	if (!im->n_seg)
		rc = slt_error_set(err, SLT_EUSAGE, path, -1,
				   "give the linked program, shared object or vmlinux the samples were taken on",
				   "no loadable segment (PT_LOAD, e.g. a .o): sample addresses cannot be placed in it");
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int ipw_image_open(struct ipw_image *im, const char *path,
		   struct slt_error *err)
{
	memset(im, 0, sizeof(*im));
	int rc = load_segments(im, path, err);
	if (rc)
		return rc;
	im->real = realpath(path, NULL);
	if (!im->real && !(im->real = strdup(path)))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	const char *sl = strrchr(im->real, '/');
	im->base = sl ? sl + 1 : im->real;
	struct slt_elf *e = NULL;
	if (slt_elf_open(path, &e, err))
		return err->code;
	const uint8_t *id;
	size_t len;
	if (slt_elf_build_id(e, &id, &len) == 0 && len <= sizeof(im->build_id)) {
		memcpy(im->build_id, id, len);
		im->build_id_len = len;
	}
	struct slt_error scratch;
	uint64_t sz;
	/* a vmlinux: kernel-space segments (its per-CPU segment is at 0) */
	if (im->hi > KERNEL_SPACE && slt_elf_type(e) == 2 /* ET_EXEC */ &&
	    slt_elf_symbol(e, "_text", &im->text, &sz, &scratch) == 0 &&
	    im->text >= KERNEL_SPACE) {
		im->kernel = true;
		im->lo = im->text;
		if (slt_elf_symbol(e, "_stext", &im->stext, &sz, &scratch) != 0)
			im->stext = im->text;
	}
	slt_elf_close(e);
	return 0;
}

void ipw_image_reset(struct ipw_image *im)
{
	if (im->cap)
		memset(im->keys, 0, im->cap * sizeof(*im->keys));
	im->n = 0;
	im->last_ok = false;
	im->kmap = false;
	im->koff = 0;
	im->mmaps = 0;
	im->name_only = false;
}

void ipw_image_free(struct ipw_image *im)
{
	free(im->real);
	free(im->alias);
	free(im->keys);
	free(im->bias);
	memset(im, 0, sizeof(*im));
}

static uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ (k >> 33);
}

static long slot_of(const struct ipw_image *im, uint32_t pid)
{
	if (!im->cap)
		return -1;
	uint64_t key = (uint64_t)pid + 1;
	size_t j = hash(key) & (im->cap - 1);
	while (im->keys[j]) {
		if (im->keys[j] == key)
			return (long)j;
		j = (j + 1) & (im->cap - 1);
	}
	return -1;
}

static int set_bias(struct ipw_image *im, uint32_t pid, int64_t bias)
{
	if ((im->n + 1) * 2 > im->cap) {
		size_t nc = im->cap ? im->cap * 2 : 64;
		uint64_t *k = calloc(nc, sizeof(*k));
		int64_t *b = calloc(nc, sizeof(*b));
		if (!k || !b) {
			free(k);
			free(b);
			return SLT_ENOMEM;
		}
		for (size_t i = 0; i < im->cap; i++) {
			if (!im->keys[i])
				continue;
			size_t j = hash(im->keys[i]) & (nc - 1);
			while (k[j])
				j = (j + 1) & (nc - 1);
			k[j] = im->keys[i];
			b[j] = im->bias[i];
		}
		free(im->keys);
		free(im->bias);
		im->keys = k;
		im->bias = b;
		im->cap = nc;
	}
	uint64_t key = (uint64_t)pid + 1;
	size_t j = hash(key) & (im->cap - 1);
	while (im->keys[j] && im->keys[j] != key)
		j = (j + 1) & (im->cap - 1);
	if (!im->keys[j])
		im->n++;
	im->keys[j] = key;
	im->bias[j] = bias;
	im->last_ok = false;
	return 0;
}

static void drop_pid(struct ipw_image *im, uint32_t pid)
{
	long j = slot_of(im, pid);
	if (j < 0)
		return;
	/* backward-shift deletion keeps the probe chains intact */
	size_t i = (size_t)j, m = im->cap - 1;
	im->keys[i] = 0;
	for (size_t k = (i + 1) & m; im->keys[k]; k = (k + 1) & m) {
		size_t h = hash(im->keys[k]) & m;
		if ((k > i && (h <= i || h > k)) || (k < i && h <= i && h > k)) {
			im->keys[i] = im->keys[k];
			im->bias[i] = im->bias[k];
			im->keys[k] = 0;
			i = k;
		}
	}
	im->n--;
	im->last_ok = false;
}

static inline uint32_t rd32(const uint8_t *b) { uint32_t v; memcpy(&v, b, 4); return v; }
static inline uint64_t rd64(const uint8_t *b) { uint64_t v; memcpy(&v, b, 8); return v; }

/* Does the mapped file name (NUL-terminated within [p, end)) name the
 * binary?  2: same path, 1: same file name, 0: no. */
static int name_match(const struct ipw_image *im, const char *p, size_t n)
{
	size_t len = strnlen(p, n);
	if (len == n)
		return 0;   /* no NUL inside the record */
	if (!strcmp(p, im->real) || (im->alias && !strcmp(p, im->alias)))
		return 2;
	const char *sl = strrchr(p, '/');
	return !strcmp(sl ? sl + 1 : p, im->base) ? 1 : 0;
}

static int on_mmap(struct ipw_image *im, const uint8_t *rec, size_t size,
		   bool two)
{
	size_t fname = two ? 72 : 40;
	if (size <= fname)
		return 0;
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	uint32_t pid = rd32(rec + 8);
	uint64_t start = rd64(rec + 16), len = rd64(rec + 24), pgoff = rd64(rec + 32);
	const char *name = (const char *)rec + fname;
	if (im->kernel) {
		const char *pfx = "[kernel.kallsyms]";
		size_t k = strlen(pfx);
		if (pid != UINT32_MAX || size - fname <= k || strncmp(name, pfx, k) ||
		    strnlen(name, size - fname) == size - fname)
			return 0;
		uint64_t ref = !strcmp(name + k, "_text") ? im->text :
			       !strcmp(name + k, "_stext") ? im->stext : 0;
		if (!ref)
			return 0;  /* perf wrote no ref_reloc_sym: not relocatable */
		im->kmap = true;
		im->koff = (int64_t)(pgoff - ref);
		im->mmaps++;
		return 0;
	}
	(void)len;
	int m = name_match(im, name, size - fname);
	if (!m)
		return 0;
	if (two && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && im->build_id_len) {
		uint8_t bl = rec[40];
		if (bl > 20 || bl != im->build_id_len ||
		    memcmp(rec + 44, im->build_id, bl))
			return 0;   /* another build of the same name */
	}
	/* The first mapping of the image in a process places it (the kernel
	 * and ld.so map the segment at file offset 0 first); later events
	 * of the same image (the other segments, an mprotect of the RELRO
	 * page that reports the data segment's first page read-only) keep
	 * that bias: one image, one bias, until an exec. */
	if (slot_of(im, pid) >= 0) {
		im->mmaps++;
		return 0;
	}
	/* The segment this mapping is of: its file pages hold pgoff (a
	 * segment is mapped from its page-aligned offset, so one file page
	 * can belong to two segments: the end of .rodata's and the start of
	 * .data's), and its p_flags match the mapping's protection (MMAP2
	 * prot; MMAP: executable unless PERF_RECORD_MISC_MMAP_DATA).  Then
	 * link address = p_vaddr - p_offset + pgoff at start. */
	uint32_t want;
	if (two) {
		uint32_t prot = rd32(rec + 64);
		want = (prot & 1 ? PF_R : 0) | (prot & 2 ? PF_W : 0) | (prot & 4 ? PF_X : 0);
	} else {
		want = misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PF_X;
	}
	long pick = -1;
	for (size_t i = 0; i < im->n_seg; i++) {
		uint64_t page = im->seg[i].off & ~(uint64_t)0xfff;
		if (pgoff < page || pgoff >= im->seg[i].off + im->seg[i].filesz)
			continue;
		if (pick < 0 || (two ? im->seg[i].flags == want :
				 (im->seg[i].flags & PF_X) == want))
			pick = (long)i;
	}
	if (pick < 0)
		return 0;
	uint64_t at = im->seg[pick].vaddr - im->seg[pick].off + pgoff;
	im->mmaps++;
	im->name_only |= m == 1;
	return set_bias(im, pid, (int64_t)(start - at));
}

void ipw_hex_id(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n && i < 20; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * (n < 20 ? n : 20)] = 0;
}

/* A build-id table entry (perf_data.h): the binary's own name with another
 * build-id is recorded in im->other_id (the first such); another path
 * with the binary's build-id becomes im->alias (the first such).  0, or
 * SLT_ENOMEM. */
static int on_build_id(struct ipw_image *im, const uint8_t *rec, size_t size,
		       uint16_t misc)
{
	if (size <= 36 || !im->build_id_len)
		return 0;
	const char *fn = (const char *)rec + 36;
	size_t fl = size - 36;
	size_t n = (misc & (1u << 15)) ? rec[32] : 20;   /* MISC_BUILD_ID_SIZE */
	if (n > 20 || strnlen(fn, fl) == fl)
		return 0;
	bool same = n >= im->build_id_len && !memcmp(rec + 12, im->build_id, im->build_id_len);
	for (size_t i = im->build_id_len; same && i < n; i++)
		same = rec[12 + i] == 0;   /* older perf: padded to 20 with zeros */
	if (im->kernel ? strcmp(fn, "[kernel.kallsyms]") : name_match(im, fn, fl) == 0) {
		if (same && !im->kernel && !im->alias && fn[0] == '/' &&
		    !(im->alias = strdup(fn)))
			return SLT_ENOMEM;
		return 0;
	}
	if (!same && !im->other_id[0])
		ipw_hex_id(rec + 12, n, im->other_id);
	return 0;
}

int ipw_image_record(struct ipw_image *im, const uint8_t *rec, size_t size)
{
	uint32_t type;
	uint16_t misc;
	if (size < 16)
		return 0;
	memcpy(&type, rec, 4);
	memcpy(&misc, rec + 4, 2);
	switch (type) {
	case PERF_RECORD_MMAP:
		return on_mmap(im, rec, size, false);
	case PERF_RECORD_MMAP2:
		return on_mmap(im, rec, size, true);
	case PERF_RECORD_FORK: {   /* u32 pid, ppid, tid, ptid */
		if (size < 24 || im->kernel)
			return 0;
		uint32_t pid = rd32(rec + 8), ppid = rd32(rec + 12);
		long j = slot_of(im, ppid);
		if (pid == ppid || j < 0)
			return 0;
		return set_bias(im, pid, im->bias[j]);
	}
	case SLT_PERF_RECORD_HEADER_BUILD_ID:
		return on_build_id(im, rec, size, misc);
	case PERF_RECORD_COMM:     /* exec: the old image is gone */
		if ((misc & PERF_RECORD_MISC_COMM_EXEC) && !im->kernel)
			drop_pid(im, rd32(rec + 8));
		return 0;
	default:
		return 0;
	}
}

bool ipw_image_reloc(struct ipw_image *im, uint32_t pid, bool kernel_mode,
		     uint64_t addr, uint64_t *out)
{
	int64_t b;
	if (im->kernel) {
		if (!kernel_mode || !im->kmap)
			return false;
		b = im->koff;
	} else {
		if (kernel_mode)
			return false;
		if (im->last_ok && im->last_pid == pid) {
			b = im->last_bias;
		} else {
			long j = slot_of(im, pid);
			if (j < 0)
				return false;
			b = im->bias[j];
			im->last_pid = pid;
			im->last_bias = b;
			im->last_ok = true;
		}
	}
	uint64_t a = addr - (uint64_t)b;
	if (a < im->lo || a >= im->hi)
		return false;
	*out = a;
	return true;
}
