/*
 * The TB cache: storage (an arena reset on flush), the hash table keyed
 * by (pc, flags), the per-CPU jump cache in front of it, direct-jump
 * chaining, per-page TB lists, invalidation and flush.
 *
 * Lookup (tb_lookup, no lock): env->engine.tb_jmp_cache[hash(pc)] is tried first
 * (one load and three compares); on a miss the hash bucket is walked and
 * the jump cache refilled.  TBs are published with release stores (a TB
 * is complete before any CPU can find it) and read with acquire loads;
 * a TB with TB_C_INVALID never matches, so a jump-cache entry written in
 * a race with the TB's invalidation does no harm.  The JIT's inline probe
 * compares the flags and cflags words together, which excludes invalid
 * TBs the same way.
 *
 * Changes (insertion, chaining, invalidation, flush) are made under the
 * exec lock (exec_lock: the address space's mutex), by any thread, while
 * other CPUs run translated code:
 *   - removing a TB from a hash chain or a jump cache is one atomic store;
 *     a reader standing on it still follows its hash_next (TB memory is
 *     only reused by a flush, in an exclusive section);
 *   - a resize relinks the TBs into a new table; a reader of the old one
 *     may miss (then looks again under the lock) but never loops;
 *   - chaining stores jmp_dest (the interpreter follows it) and patches
 *     the jump with one aligned 4-byte store (backend_set_jmp); a CPU
 *     already past the jump finishes the TB it is in.
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
 *
 * Flush: tb_flush_request() marks it pending (unlinking everything first
 * when old code must stop running at once); tb_flush_reclaim() resets the
 * arena, the hash table, the page lists, every jump cache and the code
 * buffer in an exclusive section, at a safe point of the CPU asking.
 */
#include "tcg/exec-internal.h"

#include <stdlib.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "tcg/softmmu.h"
#include "util/atomic.h"

#define TB_HASH_INITIAL_SIZE 4096
#define ARENA_CHUNK_SIZE (1u << 20)
#define ARENA_ALIGN 16
#define TB_MEMORY_DEFAULT ((size_t)256 << 20)

static gpointer page_key(uint64_t addr)
{
    return (gpointer)(uintptr_t)(addr >> GUEST_PAGE_BITS);
}

static size_t tb_hash(const TbHashTable *t, uint64_t pc, uint32_t flags)
{
    uint64_t h = (pc ^ ((uint64_t)flags << 57)) * UINT64_C(0x9e3779b97f4a7c15);

    return (size_t)(h >> 32) & t->mask;
}

static TbHashTable *hash_table_new(size_t size)
{
    TbHashTable *t = g_malloc0(sizeof(TbHashTable) + size * sizeof(TranslationBlock *));

    t->mask = size - 1;
    return t;
}

void tb_cache_init(LinxExecContext *ec)
{
    ec->hash = hash_table_new(TB_HASH_INITIAL_SIZE);
    ec->old_hashes = g_ptr_array_new_with_free_func(g_free);
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
    g_ptr_array_free(ec->old_hashes, true);
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

/* Does @tb answer (pc, flags)?  (Its key never changes; cflags does.) */
static bool tb_matches(const TranslationBlock *tb, uint64_t pc, uint32_t flags)
{
    return tb->pc == pc && tb->flags == flags && !(atomic_read(&tb->cflags) & TB_C_INVALID);
}

TranslationBlock *tb_lookup(LinxExecContext *ec, CPUArchState *env, uint64_t pc, uint32_t flags)
{
    unsigned h = tb_jmp_cache_hash(pc);
    TranslationBlock *tb = atomic_load_acq(&cpu_engine(env)->tb_jmp_cache[h]);
    const TbHashTable *t;

    if (tb && tb_matches(tb, pc, flags)) {
        cpu_engine(env)->jc_hits++;
        return tb;
    }
    cpu_engine(env)->jc_misses++;
    t = atomic_load_acq(&ec->hash);
    for (tb = atomic_load_acq(&t->buckets[tb_hash(t, pc, flags)]); tb;
         tb = atomic_load_acq(&tb->hash_next)) {
        if (tb_matches(tb, pc, flags)) {
            atomic_store_rel(&cpu_engine(env)->tb_jmp_cache[h], tb);
            return tb;
        }
    }
    return NULL;
}

/* Double the table: a new one with the TBs relinked, published at once;
 * the old one stays readable until the next flush. */
static void hash_resize(LinxExecContext *ec)
{
    TbHashTable *old = ec->hash;
    TbHashTable *t = hash_table_new((old->mask + 1) * 2);

    for (size_t i = 0; i <= old->mask; i++) {
        TranslationBlock *tb = old->buckets[i];
        while (tb) {
            TranslationBlock *next = tb->hash_next;
            size_t b = tb_hash(t, tb->pc, tb->flags);
            atomic_store_rel(&tb->hash_next, t->buckets[b]);
            t->buckets[b] = tb;
            tb = next;
        }
    }
    atomic_store_rel(&ec->hash, t);
    g_ptr_array_add(ec->old_hashes, old);
}

void tb_insert(LinxExecContext *ec, TranslationBlock *tb)
{
    TbHashTable *t;
    size_t b;

    if (ec->ntbs >= (ec->hash->mask + 1) * 2) {
        hash_resize(ec);
    }
    t = ec->hash;
    b = tb_hash(t, tb->pc, tb->flags);
    tb->hash_next = t->buckets[b];
    /* Everything the TB holds is written: publish it. */
    atomic_store_rel(&t->buckets[b], tb);
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
    src->jmp_list_next[slot] = dst->jmp_list_head;
    dst->jmp_list_head = (uintptr_t)src | slot;
    atomic_store_rel(&src->jmp_dest[slot], dst);
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
    TranslationBlock **link = &ec->hash->buckets[tb_hash(ec->hash, tb->pc, tb->flags)];

    while (*link) {
        if (*link == tb) {
            /* A reader standing on tb still follows its hash_next. */
            atomic_store_rel(link, tb->hash_next);
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
    /* From here on no lookup returns it (tb_matches). */
    atomic_or(&tb->cflags, TB_C_INVALID);
    hash_remove(ec, tb);
    for (unsigned i = 0; i < 2; i++) {
        if (tb->page_addr[i] != UINT64_MAX) {
            page_remove(ec, tb, i);
        }
    }
    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned c = 0; c < ec->ncpus; c++) {
        TranslationBlock **slot = &cpu_engine(ec->cpus[c])->tb_jmp_cache[tb_jmp_cache_hash(tb->pc)];
        atomic_cmpxchg(slot, tb, NULL);
    }
    pthread_mutex_unlock(&ec->cpu_lock);
    /* Incoming edges: their sources go back to the exec loop. */
    e = tb->jmp_list_head;
    while (e) {
        TranslationBlock *src = (TranslationBlock *)(e & ~TB_EXIT_SLOT_MASK);
        unsigned k = (unsigned)(e & TB_EXIT_SLOT_MASK);
        e = src->jmp_list_next[k];
        atomic_store_rel(&src->jmp_dest[k], NULL);
        src->jmp_list_next[k] = 0;
        backend_reset_jump(ec, src, k);
    }
    tb->jmp_list_head = 0;
    /* Outgoing edges. */
    for (unsigned k = 0; k < 2; k++) {
        TranslationBlock *dst = tb->jmp_dest[k];
        if (dst) {
            jmp_list_remove(dst, tb, k);
            atomic_store_rel(&tb->jmp_dest[k], NULL);
            backend_reset_jump(ec, tb, k);
        }
    }
    ec->stats.invalidations++;
}

void linx_tb_invalidate_page(LinxExecContext *ec, uint64_t page_addr)
{
    gpointer key = page_key(page_addr);
    TranslationBlock *tb;

    exec_lock(ec);
    while ((tb = g_hash_table_lookup(ec->pages, key)) != NULL) {
        tb_invalidate(ec, tb);
    }
    exec_unlock(ec);
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

/* Called with the address space's mutex held (= the exec lock). */
void tb_mem_changed(void *opaque, uint64_t addr, uint64_t len, unsigned kind)
{
    LinxExecContext *ec = opaque;
    uint64_t lo, hi;
    PageScan s;

    if (len == 0) {
        return;
    }
    /* TLB entries to drop: access taken away (the caller made that safe
     * with an exclusive section when CPUs run in parallel), and, with one
     * CPU at a time, code marks (so stores to code take the slow path).
     * Nothing is cached for pages that were not mapped; and while CPUs
     * run in parallel another CPU's TLB is never touched for a code mark:
     * the translating CPU updated its own (tb_gen_code), and a store slow
     * path refills its entry. */
    if (kind == GM_CHANGE_MAP || (kind == GM_CHANGE_CODE && !ec->mt)) {
        pthread_mutex_lock(&ec->cpu_lock);
        for (unsigned c = 0; c < ec->ncpus; c++) {
            linx_tlb_flush_range(ec->cpus[c], addr, len);
        }
        pthread_mutex_unlock(&ec->cpu_lock);
    }
    if (ec->bs.guest_hostfault && ec->mem && !guest_mem_host_faults(ec->mem)) {
        /* The host refused a protection change: code that relied on the
         * host's checks must go (hw/core/guest-memory-host.c). */
        ec->bs.guest_hostfault = false;
        tb_flush_request(ec, true);
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

    exec_lock(ec);
    for (unsigned i = 0; i < ec->all_tbs->len; i++) {
        interp_tb_release(g_ptr_array_index(ec->all_tbs, i));
    }
    g_ptr_array_set_size(ec->all_tbs, 0);
    g_ptr_array_set_size(ec->chained, 0);
    g_hash_table_foreach(ec->pages, collect_key, pages);
    g_hash_table_remove_all(ec->pages);
    memset(ec->hash->buckets, 0, (ec->hash->mask + 1) * sizeof(ec->hash->buckets[0]));
    g_ptr_array_set_size(ec->old_hashes, 0);
    ec->ntbs = 0;
    arena_free(ec);
    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned c = 0; c < ec->ncpus; c++) {
        memset(cpu_engine(ec->cpus[c])->tb_jmp_cache, 0,
               sizeof(cpu_engine(ec->cpus[c])->tb_jmp_cache));
    }
    pthread_mutex_unlock(&ec->cpu_lock);
    if (ec->accel == LINX_ACCEL_JIT) {
        code_buffer_reset(&ec->cb);
        host_fault_reset(ec);
    }
    /* Pages without TBs need no store checks any more. */
    for (unsigned i = 0; i < pages->len && ec->mem; i++) {
        guest_mem_clear_code(ec->mem, g_array_index(pages, uint64_t, i));
    }
    g_array_free(pages, true);
    atomic_set(&ec->flush_pending, false);
    atomic_add_relaxed(&ec->flush_count, 1);
    ec->stats.flushes++;
    exec_unlock(ec);
}

void tb_flush_request(LinxExecContext *ec, bool invalidate)
{
    exec_lock(ec);
    if (invalidate) {
        for (unsigned i = 0; i < ec->all_tbs->len; i++) {
            tb_invalidate(ec, g_ptr_array_index(ec->all_tbs, i));
        }
    }
    atomic_set(&ec->flush_pending, true);
    exec_unlock(ec);
}

void tb_flush_reclaim(LinxExecContext *ec, CPUArchState *self)
{
    if (!atomic_read(&ec->flush_pending)) {
        return;
    }
    linx_exec_start_exclusive(ec, self);
    if (atomic_read(&ec->flush_pending)) {
        tb_flush_now(ec);
    }
    linx_exec_end_exclusive(ec);
}

void tb_flush_all(LinxExecContext *ec, CPUArchState *self)
{
    tb_flush_request(ec, true);
    if (!self || !cpu_engine(self)->in_exec) {
        /* No TB of the caller runs: reclaim now. */
        tb_flush_reclaim(ec, self);
    }
}

void tb_unchain_all(LinxExecContext *ec)
{
    exec_lock(ec);
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
    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned c = 0; c < ec->ncpus; c++) {
        memset(cpu_engine(ec->cpus[c])->tb_jmp_cache, 0,
               sizeof(cpu_engine(ec->cpus[c])->tb_jmp_cache));
    }
    pthread_mutex_unlock(&ec->cpu_lock);
    exec_unlock(ec);
}
