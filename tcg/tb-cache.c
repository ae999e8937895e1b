/*
 * The TB cache: storage (an arena reset on flush), the hash table keyed
 * by (pc, flags), the per-CPU jump cache in front of it, direct-jump
 * chaining, per-page TB lists, invalidation and flush.
 *
 * Lookup (tb_lookup): env->tb_jmp_cache[hash(pc)] is tried first (one
 * load and two compares); on a miss the hash bucket is walked and the
 * jump cache refilled.
 *
 * Chaining: tb_add_jump() links a goto_tb slot of one TB to another TB:
 * src->jmp_dest[slot] = dst (the interpreter follows it), the edge is put
 * on dst's incoming list (so dst's invalidation can unlink it), and under
 * the JIT the backend patches the jump.
 *
 * Invalidation (tb_invalidate) unlinks a TB from everything; the memory
 * stays until the next flush (see tb.h).  Invalidation is driven by the
 * guest-memory listener: a store to a page holding code (on_code_write),
 * and any mapping change over a page whose TBs are no longer backed by a
 * code mark (on_change: unmapped, re-mapped, or fetch-fault TBs made
 * while the page was not mapped).
 */
#include "tcg/exec-internal.h"

#include <stdlib.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "tcg/softmmu.h"

#define TB_HASH_INITIAL_SIZE 4096
#define ARENA_CHUNK_SIZE (1u << 20)
#define ARENA_ALIGN 16
#define TB_MEMORY_DEFAULT ((size_t)256 << 20)

static gpointer page_key(uint64_t addr)
{
    return (gpointer)(uintptr_t)(addr >> GUEST_PAGE_BITS);
}

static size_t tb_hash(const LinxExecContext *ec, uint64_t pc, uint32_t flags)
{
    uint64_t h = (pc ^ ((uint64_t)flags << 57)) * UINT64_C(0x9e3779b97f4a7c15);

    return (size_t)(h >> 32) & (ec->hash_size - 1);
}

void tb_cache_init(LinxExecContext *ec)
{
    ec->hash_size = TB_HASH_INITIAL_SIZE;
    ec->hash = g_new0(TranslationBlock *, ec->hash_size);
    ec->pages = g_hash_table_new(g_direct_hash, g_direct_equal);
    ec->all_tbs = g_ptr_array_new();
    ec->chained = g_ptr_array_new();
    ec->max_tb_memory = ec->opts.max_tb_memory ? ec->opts.max_tb_memory : TB_MEMORY_DEFAULT;
}

static void arena_free(LinxExecContext *ec)
{
    ArenaChunk *c = ec->arena;

    while (c) {
        ArenaChunk *next = c->next;
        g_free(c->data);
        g_free(c);
        c = next;
    }
    ec->arena = NULL;
    ec->arena_bytes = 0;
}

void tb_cache_destroy(LinxExecContext *ec)
{
    for (unsigned i = 0; i < ec->all_tbs->len; i++) {
        interp_tb_release(g_ptr_array_index(ec->all_tbs, i));
    }
    g_ptr_array_free(ec->all_tbs, true);
    g_ptr_array_free(ec->chained, true);
    g_hash_table_destroy(ec->pages);
    g_free(ec->hash);
    arena_free(ec);
}

void *tb_arena_alloc(LinxExecContext *ec, size_t size)
{
    ArenaChunk *c = ec->arena;
    void *p;

    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (!c || c->size - c->used < size) {
        size_t csize = size > ARENA_CHUNK_SIZE / 4 ? size : ARENA_CHUNK_SIZE;
        c = g_new0(ArenaChunk, 1);
        c->data = g_malloc(csize);
        c->size = csize;
        if (size > ARENA_CHUNK_SIZE / 4 && ec->arena) {
            /* A big block gets its own chunk behind the current one, so
             * the current chunk's free space is not wasted. */
            c->next = ec->arena->next;
            ec->arena->next = c;
        } else {
            c->next = ec->arena;
            ec->arena = c;
        }
        ec->arena_bytes += csize;
    }
    p = c->data + c->used;
    c->used += size;
    return p;
}

/* ------------------------------------------------------------------ */
/* Lookup and insertion                                                */
/* ------------------------------------------------------------------ */

TranslationBlock *tb_lookup(LinxExecContext *ec, CPULinxState *env, uint64_t pc, uint32_t flags)
{
    unsigned h = tb_jmp_cache_hash(pc);
    TranslationBlock *tb = env->tb_jmp_cache[h];

    if (tb && tb->pc == pc && tb->flags == flags) {
        ec->stats.jc_hits++;
        return tb;
    }
    ec->stats.jc_misses++;
    for (tb = ec->hash[tb_hash(ec, pc, flags)]; tb; tb = tb->hash_next) {
        if (tb->pc == pc && tb->flags == flags) {
            env->tb_jmp_cache[h] = tb;
            return tb;
        }
    }
    return NULL;
}

static void hash_resize(LinxExecContext *ec)
{
    size_t old_size = ec->hash_size;
    TranslationBlock **old = ec->hash;

    ec->hash_size *= 2;
    ec->hash = g_new0(TranslationBlock *, ec->hash_size);
    for (size_t i = 0; i < old_size; i++) {
        TranslationBlock *tb = old[i];
        while (tb) {
            TranslationBlock *next = tb->hash_next;
            size_t b = tb_hash(ec, tb->pc, tb->flags);
            tb->hash_next = ec->hash[b];
            ec->hash[b] = tb;
            tb = next;
        }
    }
    g_free(old);
}

void tb_insert(LinxExecContext *ec, TranslationBlock *tb)
{
    size_t b;

    if (ec->ntbs >= ec->hash_size * 2) {
        hash_resize(ec);
    }
    b = tb_hash(ec, tb->pc, tb->flags);
    tb->hash_next = ec->hash[b];
    ec->hash[b] = tb;
    ec->ntbs++;
    g_ptr_array_add(ec->all_tbs, tb);

    for (unsigned i = 0; i < 2; i++) {
        gpointer key;
        if (tb->page_addr[i] == UINT64_MAX) {
            continue;
        }
        key = page_key(tb->page_addr[i]);
        tb->page_next[i] = g_hash_table_lookup(ec->pages, key);
        g_hash_table_insert(ec->pages, key, tb);
    }
    /* Mark after linking: the mark's change notification then finds the
     * page marked and leaves these TBs alone. */
    for (unsigned i = 0; i < 2 && ec->mem; i++) {
        if (tb->page_addr[i] != UINT64_MAX) {
            guest_mem_set_code(ec->mem, tb->page_addr[i]);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Chaining                                                            */
/* ------------------------------------------------------------------ */

static void backend_reset_jump(LinxExecContext *ec, TranslationBlock *tb, unsigned slot)
{
    if (ec->accel == LINX_ACCEL_JIT && tb->host_code) {
        ec->backend->set_jmp(&ec->bs, &ec->cb, tb, slot, NULL);
    }
}

void tb_add_jump(LinxExecContext *ec, TranslationBlock *src, unsigned slot, TranslationBlock *dst)
{
    slot &= 1;
    if (src->jmp_dest[slot] || ((src->cflags | dst->cflags) & TB_C_INVALID) ||
        (dst->cflags & TB_C_CFI_BAD)) {
        return;
    }
    if (!src->jmp_dest[slot ^ 1]) {
        g_ptr_array_add(ec->chained, src); /* its first chained slot */
    }
    src->jmp_dest[slot] = dst;
    src->jmp_list_next[slot] = dst->jmp_list_head;
    dst->jmp_list_head = (uintptr_t)src | slot;
    if (ec->accel == LINX_ACCEL_JIT) {
        ec->backend->set_jmp(&ec->bs, &ec->cb, src, slot, dst);
    }
    ec->stats.chains++;
}

/* Remove the edge (src, slot) from dst's incoming list. */
static void jmp_list_remove(TranslationBlock *dst, TranslationBlock *src, unsigned slot)
{
    uintptr_t *link = &dst->jmp_list_head;

    while (*link) {
        TranslationBlock *s = (TranslationBlock *)(*link & ~TB_EXIT_SLOT_MASK);
        unsigned k = (unsigned)(*link & TB_EXIT_SLOT_MASK);
        if (s == src && k == slot) {
            *link = s->jmp_list_next[k];
            return;
        }
        link = &s->jmp_list_next[k];
    }
}

/* ------------------------------------------------------------------ */
/* Invalidation                                                        */
/* ------------------------------------------------------------------ */

static void hash_remove(LinxExecContext *ec, TranslationBlock *tb)
{
    TranslationBlock **link = &ec->hash[tb_hash(ec, tb->pc, tb->flags)];

    while (*link) {
        if (*link == tb) {
            *link = tb->hash_next;
            ec->ntbs--;
            return;
        }
        link = &(*link)->hash_next;
    }
}

static unsigned page_slot(const TranslationBlock *tb, uint64_t page)
{
    return tb->page_addr[0] == page ? 0 : 1;
}

static void page_remove(LinxExecContext *ec, TranslationBlock *tb, unsigned i)
{
    uint64_t page = tb->page_addr[i];
    gpointer key = page_key(page);
    TranslationBlock *head = g_hash_table_lookup(ec->pages, key);
    TranslationBlock *prev = NULL, *cur = head;

    while (cur && cur != tb) {
        prev = cur;
        cur = cur->page_next[page_slot(cur, page)];
    }
    if (!cur) {
        return;
    }
    if (prev) {
        prev->page_next[page_slot(prev, page)] = tb->page_next[i];
    } else if (tb->page_next[i]) {
        g_hash_table_insert(ec->pages, key, tb->page_next[i]);
    } else {
        g_hash_table_remove(ec->pages, key);
    }
    tb->page_next[i] = NULL;
}

void tb_invalidate(LinxExecContext *ec, TranslationBlock *tb)
{
    uintptr_t e;

    if (tb->cflags & TB_C_INVALID) {
        return;
    }
    tb->cflags |= TB_C_INVALID;
    hash_remove(ec, tb);
    for (unsigned i = 0; i < 2; i++) {
        if (tb->page_addr[i] != UINT64_MAX) {
            page_remove(ec, tb, i);
        }
    }
    for (unsigned c = 0; c < ec->ncpus; c++) {
        TranslationBlock **slot = &ec->cpus[c]->tb_jmp_cache[tb_jmp_cache_hash(tb->pc)];
        if (*slot == tb) {
            *slot = NULL;
        }
    }
    /* Incoming edges: their sources go back to the exec loop. */
    e = tb->jmp_list_head;
    while (e) {
        TranslationBlock *src = (TranslationBlock *)(e & ~TB_EXIT_SLOT_MASK);
        unsigned k = (unsigned)(e & TB_EXIT_SLOT_MASK);
        e = src->jmp_list_next[k];
        src->jmp_dest[k] = NULL;
        src->jmp_list_next[k] = 0;
        backend_reset_jump(ec, src, k);
    }
    tb->jmp_list_head = 0;
    /* Outgoing edges. */
    for (unsigned k = 0; k < 2; k++) {
        TranslationBlock *dst = tb->jmp_dest[k];
        if (dst) {
            jmp_list_remove(dst, tb, k);
            tb->jmp_dest[k] = NULL;
            backend_reset_jump(ec, tb, k);
        }
    }
    ec->stats.invalidations++;
}

void linx_tb_invalidate_page(LinxExecContext *ec, uint64_t page_addr)
{
    gpointer key = page_key(page_addr);
    TranslationBlock *tb;

    while ((tb = g_hash_table_lookup(ec->pages, key)) != NULL) {
        tb_invalidate(ec, tb);
    }
}

void tb_code_written(void *opaque, uint64_t page_addr)
{
    linx_tb_invalidate_page(opaque, page_addr & GUEST_PAGE_MASK);
}

typedef struct PageScan {
    uint64_t lo, hi;
    GArray *found;
} PageScan;

static void collect_page(gpointer key, gpointer value, gpointer opaque)
{
    PageScan *s = opaque;
    uint64_t page = (uint64_t)(uintptr_t)key << GUEST_PAGE_BITS;

    if (page >= s->lo && page <= s->hi) {
        g_array_append_val(s->found, page);
    }
}

void tb_mem_changed(void *opaque, uint64_t addr, uint64_t len)
{
    LinxExecContext *ec = opaque;
    uint64_t lo, hi;
    PageScan s;

    if (len == 0) {
        return;
    }
    for (unsigned c = 0; c < ec->ncpus; c++) {
        linx_tlb_flush_range(ec->cpus[c], addr, len);
    }
    if (ec->bs.guest_hostfault && ec->mem && !guest_mem_host_faults(ec->mem)) {
        /* The host refused a protection change: code that relied on the
         * host's checks must go (hw/core/guest-memory-host.c). */
        ec->bs.guest_hostfault = false;
        tb_flush_all(ec);
    }
    if (g_hash_table_size(ec->pages) == 0) {
        return;
    }
    /* TBs on pages that lost (or never had) their code mark are stale:
     * made before the page was (re)mapped. */
    lo = addr & GUEST_PAGE_MASK;
    hi = (addr + (len - 1)) & GUEST_PAGE_MASK;
    if (hi < lo) {
        hi = GUEST_PAGE_MASK;
    }
    s.lo = lo;
    s.hi = hi;
    s.found = g_array_new(false, false, sizeof(uint64_t));
    if (((hi - lo) >> GUEST_PAGE_BITS) < g_hash_table_size(ec->pages)) {
        for (uint64_t p = lo;; p += GUEST_PAGE_SIZE) {
            if (g_hash_table_contains(ec->pages, page_key(p))) {
                g_array_append_val(s.found, p);
            }
            if (p == hi) {
                break;
            }
        }
    } else {
        g_hash_table_foreach(ec->pages, collect_page, &s);
    }
    for (unsigned i = 0; i < s.found->len; i++) {
        uint64_t p = g_array_index(s.found, uint64_t, i);
        if (!ec->mem || !guest_mem_is_code(ec->mem, p)) {
            linx_tb_invalidate_page(ec, p);
        }
    }
    g_array_free(s.found, true);
}

/* ------------------------------------------------------------------ */
/* Flush                                                               */
/* ------------------------------------------------------------------ */

static void collect_key(gpointer key, gpointer value, gpointer opaque)
{
    uint64_t page = (uint64_t)(uintptr_t)key << GUEST_PAGE_BITS;

    g_array_append_val((GArray *)opaque, page);
}

void tb_flush_now(LinxExecContext *ec)
{
    GArray *pages = g_array_new(false, false, sizeof(uint64_t));

    for (unsigned i = 0; i < ec->all_tbs->len; i++) {
        interp_tb_release(g_ptr_array_index(ec->all_tbs, i));
    }
    g_ptr_array_set_size(ec->all_tbs, 0);
    g_ptr_array_set_size(ec->chained, 0);
    g_hash_table_foreach(ec->pages, collect_key, pages);
    g_hash_table_remove_all(ec->pages);
    memset(ec->hash, 0, ec->hash_size * sizeof(*ec->hash));
    ec->ntbs = 0;
    arena_free(ec);
    for (unsigned c = 0; c < ec->ncpus; c++) {
        memset(ec->cpus[c]->tb_jmp_cache, 0, sizeof(ec->cpus[c]->tb_jmp_cache));
    }
    if (ec->accel == LINX_ACCEL_JIT) {
        code_buffer_reset(&ec->cb);
        host_fault_reset(ec);
    }
    /* Pages without TBs need no store checks any more. */
    for (unsigned i = 0; i < pages->len && ec->mem; i++) {
        guest_mem_clear_code(ec->mem, g_array_index(pages, uint64_t, i));
    }
    g_array_free(pages, true);
    ec->flush_pending = false;
    ec->flush_count++;
    ec->stats.flushes++;
}

void tb_flush_all(LinxExecContext *ec)
{
    if (!ec->x.running) {
        tb_flush_now(ec);
        return;
    }
    /* A TB is running: unlink everything now, reclaim at the loop top. */
    for (unsigned i = 0; i < ec->all_tbs->len; i++) {
        tb_invalidate(ec, g_ptr_array_index(ec->all_tbs, i));
    }
    ec->flush_pending = true;
}

void tb_unchain_all(LinxExecContext *ec)
{
    /* Only TBs that chained since the last unchain can have chains (the
     * others lost theirs then, or never had one). */
    for (unsigned i = 0; i < ec->chained->len; i++) {
        TranslationBlock *tb = g_ptr_array_index(ec->chained, i);
        for (unsigned k = 0; k < 2; k++) {
            TranslationBlock *dst = tb->jmp_dest[k];
            if (dst) {
                jmp_list_remove(dst, tb, k);
                tb->jmp_dest[k] = NULL;
                tb->jmp_list_next[k] = 0;
                backend_reset_jump(ec, tb, k);
            }
        }
    }
    g_ptr_array_set_size(ec->chained, 0);
    /* The JIT's in-line probe follows indirect jumps through the jump
     * caches without the loop: empty them too. */
    for (unsigned c = 0; c < ec->ncpus; c++) {
        memset(ec->cpus[c]->tb_jmp_cache, 0, sizeof(ec->cpus[c]->tb_jmp_cache));
    }
}
