/* The passages search engine: exact best-first search over sets of consumed blockers on the region graph.

   This is the one fast engine of the passages game: the best route (and solvability), the first witness and
   the least-need search of min_start_hp, and the decision searches of the counting walk (Decider). Python
   (twisty/solver/passages_search.py) feeds it and binds it: the region graph, each area's gains, the
   dominator tree and the bound's tables are made there (passages_search_graph.py), each fight's damage
   comes from the rules through a callback once per pair of stats met, and every route this module returns
   (the blockers it consumed) is followed there by the rules' own functions, then replayed on the grid by
   the plain rules before anything is printed. The tests hold its answers to the reference engine
   (passages_reference.py) and to the brute force on hundreds of levels, its steps to the rules' functions
   (follow), and each bound to the plain rules' exhaustive optimum and to hand-computed values (bound).

   Everything about a route's position except its life is a function of the set S of blockers it has
   consumed: the reached areas (hence the items taken, the attack, defence and keys) and the frontier. So a
   state is S (a bit set over blockers) with the best life found for it, as in the genre's standard solver.
   On top of that:

   Dominance. Let damage = start hp + elixirs taken - hp (the life lost in fights so far), doors = the number of
   doors opened, and "linking" blockers those that touch another blocker or a goal. State A dominates B when
       A's reached areas include B's, A consumed every linking blocker B consumed, damage_A <= damage_B, and
       either doors_A <= doors_B or A's keys cover every door it may still open.
   Why it is sound: let B go on with blockers X and reach a goal. A copies B, skipping every blocker it
   already consumed. Each blocker B consumes touches B's reach: one of its areas, all reached by A too, or a
   consumed linking blocker, consumed by A too (now or earlier in the copy); so it is on A's frontier. A
   consumed blocker that is not linking gives nothing beyond the areas around it, which A has. A's reach
   includes B's at every step, so A's attack and defence are at least B's (every fight costs A no more), A
   has taken every elixir B has, and A's life exceeds B's at every step by at least damage_B - damage_A >= 0,
   so every fight B survives A survives. Keys: each side holds the starting keys plus the keys of its reached
   areas minus the doors it opened; A has reached every area B has, and the copy opens no door that B does
   not, so A's keys minus B's stay at least doors_B - doors_A >= 0 (or, in the other case, keys never bind A
   again). The goal B reaches touches A's reach too, with at least B's life. (Comparing life instead of damage
   is unsound: B may pick up later the elixir A already counted; and more areas reached through more doors is
   not better: B may reach the key behind that door around another way and keep its own key.)
   States are stored by what their future depends on besides life: (reached areas, consumed linking blockers,
   keys), one state per such key, the one with the most hp; equal keys mean equal areas and doors_A = doors_B,
   so the rule applies both ways. Consumed sets that reach the same areas around a loop thus count once.
   Applied four ways: (1) closure: zero-damage fights, and doors once the keys cover every remaining door,
   are taken at once, because the state after them dominates the state before; (2) blockers that lead to
   nothing (dead-end chains without items or goals) are never consumed; (3) a state is dropped when the
   state one fight further on (over any frontier enemy) is known with no more damage, checked when it comes
   up for expansion (by then the further state is often known; checking when it is made too cost more than
   it saved); (4) a blocker whose neighbours are all reached or consumed and that touches no goal is never
   consumed: the state without it dominates the state with it (same reach, no less hp or keys).

   Bound. The final life of any continuation is at most hp + (elixirs not taken yet in areas reachable at
   all) - (least damage still needed to touch a goal). The last term is a shortest path over blockers from
   the frontier to a goal where each enemy costs its damage at the largest attack and defence the player can
   ever have (damage only falls as attack and defence rise) and doors cost 0; it is 0 when a goal is already
   reached. Each term bounds its true counterpart, so the bound never falls below the true optimum
   (admissible). A state whose bound cannot beat the best route found is pruned. The bound is also
   consistent in this sense: consuming blocker b at cost c lowers it by at least c - (b's least damage),
   since the relaxation's best set after the step, with b and what b opens added back, is a set for the
   state before that counts b at its least damage. So a move whose child could not beat the best route is
   skipped without making the child.

   Order. States are expanded best bound first (A*), ties broken towards more consumed blockers, so the
   first routes found are good ones and the search stops the moment the best remaining bound cannot beat
   the best route: that is the optimality proof.

   Towers (docs/mota.md). Python packs what a tower adds into what the core already holds: the keys of each
   colour are a field of one 64-bit number (Graph.fields; a door takes one key of its colour, and the rules
   above hold colour by colour: doors_A <= doors_B, or keys covering every door left, for each colour), the
   magic defence rides in the defence (defence x scale + mdef, which adds up as the gains do; only the cost
   callback reads it), and the specials are in the costs the callback gives. The bounds and the dominance rule
   need one fact of the costs: a state with more reached areas fights no dearer. In a tower that is true when
   every gain on the map of each stat is never against the hero (passages_tower: monotone and gain-safe
   stats, each gain checked at every combination of held values, so a chain of gains is too); levels with an
   unsafe stat, a shop (purchases are state) or drain (a cost that reads the life) are not given to the
   core. A boss whose defeat wins is a blocker with `ends` (Graph.ending): consuming it is a win with the
   life its fight leaves, and nothing it uncovers is taken; the closure never takes it, a state after it is
   never stored (it dominates nothing), and dominance application 3 never looks over it.
   A shop is chains of purchase blockers from its area, one chain per kind on offer, the i-th purchase of a
   kind opening a pseudo-area worth its gain (passages_search_graph.py, "Shops"): a purchase is a door that
   needs money instead of a key (affordable: the money of the start and of the paying enemies consumed covers
   one more price), so the position is still a function of the consumed set. The dominance rule then needs
   two more things: A consumed every paying enemy B did (so A's money, now and after any continuation, is
   at least B's), and A made exactly B's purchases (so each purchase B makes costs A the same; a purchase
   more of A would make every later one dearer). Paying enemies and purchases are linking blockers, so a
   state's key holds them; reaches_beyond checks the purchases both ways; application 4 never skips a paying
   enemy (its money may buy). The bounds take every purchase as free: a relaxation of the money. The
   Steiner and chain bounds are not built for a shop (build_steiner_graph). The best-route search buys as
   soon as it can: while a purchase is affordable, its only moves are the purchases. That loses nothing:
   a continuation that buys X later than it could is no better than the same continuation buying X at the
   first moment it could afford it (the price of purchase n depends on n only, so the money left is the
   same or more at every later moment, and the stats are higher earlier, which makes no fight dearer: the
   core holds no shop whose purchases raise an unsafe stat); and one that could buy but never buys again
   is no better than one that buys hp there. Applied from any state, this holds for its best continuation,
   so the dominance rule, which compares best continuations, holds as before.

   Sets of areas and of blockers are 128-bit masks, sets of dominator-tree nodes 256-bit masks; levels with
   more areas, blockers or nodes go to the reference engine (passages_search_graph.py checks the sizes).
   A state is a record in one growing array, never freed during the search: a record keeps the index of the
   record it was made from and the blocker consumed on the way, so the chain of records from the best one
   back to the root is the route (route_steps). The searches run without the GIL, so two of them can run
   at once (passages_search._race); and the search with the chain bound can hand states to be bounded to a
   helper thread on the other core (Helper), the one place where the order of expansion depends on timing.

   Portable C11: the helper's lock is a spin lock on an atomic_flag, threads are POSIX threads; it builds
   with `-std=c11 -Wall -Wextra -Werror` (.ci/compile-core). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SET_WORDS 2     /* areas and blockers: 128 */
#define NODE_WORDS 4    /* dominator-tree nodes: 256 */
#define CLOCK_EVERY 256
/* The deadline is looked at by work done, not by states counted: every CLOCK_EVERY units, a state expanded
   one unit and a Steiner or chain bound BOUND_WORK more (each costs several expansions' time, and a search
   that mostly refines bounds expands few states: counted by expansions alone, least_need went 0.3 s
   between two looks on suite level b090-02). The priced bound counts nothing extra; the entry bound
   (entry_possible) counts BOUND_WORK like the Steiner and chain bounds. least_need looks every NEED_CLOCK_EVERY units: its states cost about half a millisecond each on the
   suite's larger levels (a look costs a few microseconds). */
#define BOUND_WORK 8
#define NEED_CLOCK_EVERY 64
#define NO_WIN (-((int64_t)1 << 62))
/* The largest cost the core takes: the Python side turns any larger one into an impossible fight (no route
   can survive it: it is above all the life ever available, start hp and every elixir, each at most 10^9).
   Below it, sums over 128 blockers, and a distance shifted left by 8 in piece_distances' heap, stay far
   within 64 bits. */
#define MAX_COST ((int64_t)1 << 48)

typedef struct { uint64_t w[SET_WORDS]; } set_t;
typedef struct { uint64_t w[NODE_WORDS]; } nodes_t;

static inline int set_empty(set_t a) { return !(a.w[0] | a.w[1]); }
static inline set_t set_or(set_t a, set_t b) { a.w[0] |= b.w[0]; a.w[1] |= b.w[1]; return a; }
static inline set_t set_and(set_t a, set_t b) { a.w[0] &= b.w[0]; a.w[1] &= b.w[1]; return a; }
static inline set_t set_andnot(set_t a, set_t b) { a.w[0] &= ~b.w[0]; a.w[1] &= ~b.w[1]; return a; }
/* Single members are set and read without indexing the words by a variable: that would keep the set in
   memory, and a whole-set load right after a one-word store stalls (no store-to-load forwarding). */
static inline int set_has(set_t a, int i) { return ((i < 64 ? a.w[0] : a.w[1]) >> (i & 63)) & 1; }
static inline set_t set_with(set_t a, int i) {
    uint64_t bit = (uint64_t)1 << (i & 63);
    a.w[0] |= i < 64 ? bit : 0;
    a.w[1] |= i < 64 ? 0 : bit;
    return a;
}
static inline set_t set_without(set_t a, int i) {
    uint64_t bit = (uint64_t)1 << (i & 63);
    a.w[0] &= ~(i < 64 ? bit : 0);
    a.w[1] &= ~(i < 64 ? 0 : bit);
    return a;
}
static inline int set_count(set_t a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }
static inline int set_within(set_t a, set_t b) { return !(a.w[0] & ~b.w[0]) && !(a.w[1] & ~b.w[1]); }
static inline int set_equal(set_t a, set_t b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static inline int set_lowest(set_t a) {
    if (a.w[0]) return __builtin_ctzll(a.w[0]);
    if (a.w[1]) return 64 + __builtin_ctzll(a.w[1]);
    return -1;
}
/* Iterate the members of a set, lowest first. */
#define FOR_EACH(i, set, ...) \
    for (int word_ = 0; word_ < SET_WORDS; word_++) { \
        uint64_t rest_ = (set).w[word_]; \
        while (rest_) { int i = word_ * 64 + __builtin_ctzll(rest_); rest_ &= rest_ - 1; __VA_ARGS__ } }
#define FOR_EACH_NODE(i, set, ...) \
    for (int word_ = 0; word_ < NODE_WORDS; word_++) { \
        uint64_t rest_ = (set).w[word_]; \
        while (rest_) { int i = word_ * 64 + __builtin_ctzll(rest_); rest_ &= rest_ - 1; __VA_ARGS__ } }

static inline nodes_t nodes_or(nodes_t a, nodes_t b) {
    for (int i = 0; i < NODE_WORDS; i++) a.w[i] |= b.w[i];
    return a;
}
static inline nodes_t nodes_and(nodes_t a, nodes_t b) {
    for (int i = 0; i < NODE_WORDS; i++) a.w[i] &= b.w[i];
    return a;
}
static inline nodes_t nodes_andnot(nodes_t a, nodes_t b) {
    for (int i = 0; i < NODE_WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline nodes_t nodes_with(nodes_t a, int i) {
    uint64_t bit = (uint64_t)1 << (i & 63);
    int word = i >> 6;
    for (int k = 0; k < NODE_WORDS; k++) a.w[k] |= k == word ? bit : 0;
    return a;
}
/* Areas are nodes 0..A-1 and blocker b is node A + b. */
static inline nodes_t nodes_of(set_t areas, set_t blockers, int area_count) {
    nodes_t out = {{areas.w[0], areas.w[1], 0, 0}};
    int words = area_count >> 6, shift = area_count & 63;
    for (int i = 0; i < SET_WORDS; i++) {
        out.w[i + words] |= blockers.w[i] << shift;
        if (shift && i + words + 1 < NODE_WORDS) out.w[i + words + 1] |= blockers.w[i] >> (64 - shift);
    }
    return out;
}
static inline nodes_t nodes_of_areas(set_t areas) { nodes_t out = {{areas.w[0], areas.w[1], 0, 0}}; return out; }

/* ------------------------------------------------------------------------------------------ the graph */

typedef struct {
    int64_t atk, defense, hp;
    int64_t keys;           /* packed, a field per key colour (Graph.fields) */
    int goal;
    set_t blockers;
    nodes_t children;
} Area;

typedef struct {
    int is_door, goal;
    int ends;               /* a boss whose defeat wins: consuming it ends the route (header comment, "Towers") */
    int64_t key_unit;       /* a door: one key of its colour, packed (1 << its field's shift); else 0 */
    int64_t key_bits;       /* a door: the bits of its colour's field; else 0 */
    int purchase;           /* a purchase of the shop (a door that needs money, not a key: "Towers") */
    int64_t money;          /* an enemy of a level with a shop: the money its defeat pays; else 0 */
    int64_t least;          /* least damage ever (doors 0) */
    int64_t goal_distance;  /* -1: no goal beyond */
    set_t areas, blockers, allowed_neighbours;
    nodes_t children;
} Blocker;

typedef struct {
    int64_t *costs;         /* per blocker, -1 for an impossible fight */
    int64_t *prices;        /* per blocker then per Steiner node, the chain bound's prices (chain_prices_of);
                               NULL until first asked */
    set_t free;             /* enemies that cost nothing */
    int64_t atk, defense;   /* the stats it is for */
    int64_t id;             /* tables are numbered as they are made: the distance tables' keys */
} CostTable;

/* The distances of one weighting of the blockers (piece_distances), under the key the chain bound gives it
   (made of cost tables' ids). */
typedef struct {
    int64_t first, second;  /* the key; first == DIST_EMPTY for an empty slot */
    int64_t *dist;          /* per piece of equipment, then per blocker */
} DistTable;

#define DIST_EMPTY INT64_MIN

/* A lock for the tables two threads may add to, spinning: a holder keeps it for well under a microsecond
   but for the rare new table. C11 atomics, so that it builds wherever the compiler has them. */
typedef struct {
    atomic_flag held;
} SpinLock;

static inline void spin_lock(SpinLock *lock) {
    while (atomic_flag_test_and_set_explicit(&lock->held, memory_order_acquire)) { }
}
static inline void spin_unlock(SpinLock *lock) { atomic_flag_clear_explicit(&lock->held, memory_order_release); }

/* The most key colours: the rulebook's key and the towers' four. */
#define MAX_FIELDS 5

typedef struct {
    int areas_count, blockers_count, nodes_count;
    /* Keys, packed: one field per key colour the level has, `field_shift` its lowest bit and `field_bits` the
       mask of its value after the shift; the doors of each colour, and those of them the search may open. */
    int fields;
    int field_shift[MAX_FIELDS];
    int64_t field_bits[MAX_FIELDS];
    set_t field_doors[MAX_FIELDS], field_allowed[MAX_FIELDS];
    set_t ending;           /* the bosses whose defeat wins */
    /* A shop ("Towers"): the purchase blockers, the enemies that pay money, the money at the start, and
       purchase n (from 0) costs shop_start + shop_delta x n. */
    set_t purchases, paying;
    int64_t start_money, shop_start, shop_delta;
    Area *areas;
    Blocker *blockers;
    int64_t *positive;      /* per node */
    int64_t *goal_extra;    /* per node; only read on goal ancestors */
    set_t door_mask, goal_blockers, linking, allowed, allowed_doors;
    nodes_t goal_ancestors;
    int64_t total_elixirs;
    /* A blocker every route the search reports must consume (-1: none; search's `must`): a win is a goal
       reached with it consumed. It is linking, so that states with it and without it never share a key, and
       a state dominates another only when it has consumed it too if the other has (the rule's proof then
       copies the other's route, which consumes it). */
    int must;
    struct SteinerGraph *steiner;   /* the Steiner bound's graph; NULL when the level does not fit it */
    struct Scratch *scratch;        /* the searching thread's working space for the Steiner ascents */
    SpinLock *tables_lock;  /* held around the shared tables while two threads bound (NULL: one) */
    PyObject *cost_callback;
    CostTable **tables;     /* an open-addressing table of the cost tables met (NULL: an empty slot) */
    int64_t tables_capacity, tables_used;
} Graph;

/* -------------------------------------------------------------------------------------------- states */

/* The chain bound follows this many pieces of equipment one by one (chain_bound). */
#define CHAIN_PIECES 4

/* What a state's chain bound learnt for the states made from it (chain_bound's hint): the pieces
   it followed, and the sets of them (bits of `dead`, as the chain bound's masks) with which no route from
   it beats the floor. count -1: nothing. */
typedef struct {
    int8_t count;
    int8_t pieces[CHAIN_PIECES];
    uint16_t dead;
} ChainHint;

typedef struct {
    set_t consumed, areas, frontier;
    nodes_t boundary;
    int64_t hp, elixirs, gain, atk, defense;
    int64_t keys;           /* packed (Graph.fields) */
    int64_t cheap;          /* its own bound (bound_of), which the step test reads */
    int goal;
    int parent;             /* the record this one was made from (-1 for the root) */
    int key_id;             /* the id of the state's key (KeyTable) */
    int16_t step;           /* the blocker consumed on the way from the parent */
    int8_t refined;         /* the lazy bounds (priced, Steiner) are in the bound it is queued with */
    ChainHint hint;         /* its own chain bound's, or else the one it was made with */
} State;                    /* 160 bytes, as before keys were packed into 64 bits */

typedef struct {
    set_t areas, linked;
    int64_t keys;
} Key;

static inline uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}
static inline uint64_t key_hash(const Key *k) {
    uint64_t h = mix(0, k->areas.w[0]);
    h = mix(h, k->areas.w[1]);
    h = mix(h, k->linked.w[0]);
    h = mix(h, k->linked.w[1]);
    h = mix(h, (uint64_t)k->keys);
    return h ^ (h >> 29);
}
static inline uint64_t set_hash(set_t s) {
    uint64_t h = mix(mix(0, s.w[0]), s.w[1]);
    return h ^ (h >> 29);
}

/* The record stored under a key, with the two numbers most tests read, so that they need not load it. */
typedef struct {
    int64_t hp, elixirs;
    int32_t record;         /* -1: none */
} Best;

/* A key and its stored state side by side: 64 bytes, one cache line (the array is aligned to lines). */
typedef struct {
    Key key;
    Best best;
} KeyEntry;

/* Key ids: each state key met gets a dense id; best[id] is the state stored under it. A slot
   holds the id in its low 32 bits and the key's hash in its high 32, so that most probes that miss are
   told apart without reading the key. */
#define EMPTY_SLOT UINT64_MAX
typedef struct {
    uint64_t *slots;
    int64_t capacity;
    KeyEntry *entries;
    int64_t count, keys_capacity;
} KeyTable;

/* Where a raw step (a closed state's consumed set + one blocker) led: the key of its closure. (Its elixirs
   are the elixirs of the state stored under that key, since both reached the same areas.) */
typedef struct {
    set_t raw;
    int32_t key_id;         /* -1: empty slot */
} StepEntry;

typedef struct {
    StepEntry *slots;
    int64_t capacity, count;
} StepTable;

/* The search pops the least (first, second), first in first out among equals: first and second are -bound
   and -depth (with `dive`, -depth and -bound). Few pairs (first, second) are in use at
   a time (a few hundred bounds by at most 129 depths), so the queue keeps one first-in first-out list of
   records per pair and a small heap of the pairs: within a pair, records come out in the order they went
   in, which is the counter's; the heap of pairs stays in the cache where a heap of every entry did not. */
typedef struct {
    int64_t first, second;
    int32_t *items;
    int64_t head, tail, capacity;
    int in_heap;
} Fifo;

typedef struct {
    Fifo *fifos;
    int64_t fifos_count, fifos_capacity;
    int32_t *map_slots;     /* (first, second) -> fifo index, -1 empty; pairs are never removed */
    int64_t map_capacity;
    int32_t *heap;          /* fifo indices with entries, by (first, second) */
    int64_t heap_size, heap_capacity;
    int64_t size;
} Queue;

typedef struct {
    Graph g;
    State *records;
    int64_t records_count, records_capacity;
    KeyTable keys;
    StepTable steps;
    Queue queue;
    /* A decision search of a Decider logs what it replaces, to put it back when it does not fail. */
    int undo_active;
    struct Undo *undo;
    int64_t undo_count, undo_capacity;
    struct Helper *helper;      /* the thread that bounds states on the second core (NULL: none) */
} Search;

typedef struct Undo {
    int32_t key_id;
    Best best;
} Undo;

/* The search runs without the GIL (so that two searches can run at once, one per core) and takes it back
   for every call into Python: the cost callback, the deadline, and raising an error. */
static void no_memory(void) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyErr_NoMemory();
    PyGILState_Release(gil);
}

static int grow(void **items, int64_t *capacity, int64_t needed, size_t item_size) {
    if (needed <= *capacity) return 0;
    int64_t wanted = *capacity ? *capacity : 1024;
    while (wanted < needed) wanted *= 2;
    void *grown = realloc(*items, (size_t)wanted * item_size);
    if (!grown) { no_memory(); return -1; }
    *items = grown;
    *capacity = wanted;
    return 0;
}

/* ----------------------------------------------------------------------------------- cost tables */

/* Every blocker's damage at these stats, from the rules through the callback (a sequence of ints, -1 for
   a fight that cannot be won), and the enemies that cost nothing. */
static int ask_costs(Graph *g, int64_t atk, int64_t defense, int64_t *costs, set_t *free_mask) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int status = -1;
    PyObject *answer = PyObject_CallFunction(g->cost_callback, "LL", (long long)atk, (long long)defense);
    PyObject *seq = answer ? PySequence_Fast(answer, "the cost callback must return a sequence") : NULL;
    Py_XDECREF(answer);
    if (seq && PySequence_Fast_GET_SIZE(seq) != g->blockers_count) {
        PyErr_SetString(PyExc_ValueError, "the cost callback returned the wrong number of costs");
    } else if (seq) {
        status = 0;
        for (int b = 0; b < g->blockers_count && status == 0; b++) {
            costs[b] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, b));
            if (costs[b] == -1 && PyErr_Occurred()) status = -1;
            else if (costs[b] < -1 || costs[b] > MAX_COST) {
                PyErr_SetString(PyExc_ValueError, "a cost beyond the compiled search's range reached it");
                status = -1;
            } else if (costs[b] == 0 && !g->blockers[b].is_door) *free_mask = set_with(*free_mask, b);
        }
    }
    Py_XDECREF(seq);
    PyGILState_Release(gil);
    return status;
}

static inline void lock_tables(const Graph *g) { if (g->tables_lock) spin_lock(g->tables_lock); }
static inline void unlock_tables(const Graph *g) { if (g->tables_lock) spin_unlock(g->tables_lock); }

static inline uint64_t stats_hash(int64_t atk, int64_t defense) {
    return ((uint64_t)atk * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)defense * 0xc2b2ae3d27d4eb4fULL);
}

/* costs_at with the tables' lock held. Each table is allocated alone, so that a pointer to it stays good
   while the table of tables grows (another thread may make it grow). */
static CostTable *costs_at_locked(Graph *g, int64_t atk, int64_t defense) {
    uint64_t mask = (uint64_t)g->tables_capacity - 1;
    uint64_t at = stats_hash(atk, defense) & mask;
    while (g->tables[at]) {
        if (g->tables[at]->atk == atk && g->tables[at]->defense == defense) return g->tables[at];
        at = (at + 1) & mask;
    }
    if (2 * (g->tables_used + 1) > g->tables_capacity) {
        int64_t old_capacity = g->tables_capacity;
        CostTable **old = g->tables, **fresh = calloc((size_t)old_capacity * 2, sizeof(CostTable *));
        if (!fresh) { no_memory(); return NULL; }
        g->tables = fresh;
        g->tables_capacity = old_capacity * 2;
        mask = (uint64_t)g->tables_capacity - 1;
        for (int64_t i = 0; i < old_capacity; i++) {
            if (!old[i]) continue;
            uint64_t to = stats_hash(old[i]->atk, old[i]->defense) & mask;
            while (fresh[to]) to = (to + 1) & mask;
            fresh[to] = old[i];
        }
        free(old);
        return costs_at_locked(g, atk, defense);
    }
    /* The damage of every blocker at these stats comes from the rules, through the callback: a sequence of
       ints, -1 for a fight that cannot be won. */
    CostTable *table = malloc(sizeof(CostTable));
    int64_t *costs = malloc(sizeof(int64_t) * (size_t)g->blockers_count);
    if (!table || !costs) { free(table); free(costs); no_memory(); return NULL; }
    set_t free_mask = {{0, 0}};
    if (ask_costs(g, atk, defense, costs, &free_mask) < 0) { free(table); free(costs); return NULL; }
    table->costs = costs;
    table->prices = NULL;
    table->free = free_mask;
    table->atk = atk;
    table->defense = defense;
    table->id = g->tables_used;
    g->tables[at] = table;
    g->tables_used++;
    return table;
}

static CostTable *costs_at(Graph *g, int64_t atk, int64_t defense) {
    lock_tables(g);
    CostTable *table = costs_at_locked(g, atk, defense);
    unlock_tables(g);
    return table;
}

/* ---------------------------------------------------------------------------------------- tables */

/* The slots of an open-addressing table, every byte 0xff: each slot reads as empty (-1). */
static void *empty_slots(int64_t count, size_t slot_size) {
    void *slots = malloc(slot_size * (size_t)count);
    if (!slots) { no_memory(); return NULL; }
    memset(slots, 0xff, slot_size * (size_t)count);
    return slots;
}

static int keys_init(KeyTable *t) {
    t->capacity = 1 << 12;
    t->slots = empty_slots(t->capacity, sizeof(uint64_t));
    if (!t->slots) return -1;
    t->entries = NULL; t->count = 0; t->keys_capacity = 0;
    return 0;
}

static inline uint64_t key_slot(uint64_t hash, int32_t id) { return (hash & 0xffffffff00000000ULL) | (uint32_t)id; }

static void keys_place(KeyTable *t, int32_t id) {
    uint64_t mask = (uint64_t)t->capacity - 1;
    uint64_t hash = key_hash(&t->entries[id].key);
    uint64_t at = hash & mask;
    while (t->slots[at] != EMPTY_SLOT) at = (at + 1) & mask;
    t->slots[at] = key_slot(hash, id);
}

/* The id of key k, made when `create`; -1 when absent (or on error with an exception set, -2). */
static int32_t keys_find(KeyTable *t, const Key *k, int create) {
    uint64_t mask = (uint64_t)t->capacity - 1;
    uint64_t hash = key_hash(k);
    uint64_t at = hash & mask, tag = hash >> 32;
    for (;;) {
        uint64_t slot = t->slots[at];
        if (slot == EMPTY_SLOT) break;
        if (slot >> 32 == tag) {
            int32_t id = (int32_t)(uint32_t)slot;
            const Key *other = &t->entries[id].key;
            if (other->keys == k->keys && set_equal(other->areas, k->areas) && set_equal(other->linked, k->linked))
                return id;
        }
        at = (at + 1) & mask;
    }
    if (!create) return -1;
    if (t->count >= INT32_MAX - 1) { no_memory(); return -2; }
    if (t->count + 1 > t->keys_capacity) {
        int64_t wanted = t->keys_capacity ? 2 * t->keys_capacity : 1024;
        void *grown = NULL;
        if (posix_memalign(&grown, 64, sizeof(KeyEntry) * (size_t)wanted) != 0) { no_memory(); return -2; }
        if (t->count) memcpy(grown, t->entries, sizeof(KeyEntry) * (size_t)t->count);
        free(t->entries);
        t->entries = grown;
        t->keys_capacity = wanted;
    }
    int32_t id = (int32_t)t->count++;
    t->entries[id].key = *k;
    t->entries[id].best.record = -1;
    if (2 * t->count > t->capacity) {
        free(t->slots);
        t->capacity *= 2;
        t->slots = empty_slots(t->capacity, sizeof(uint64_t));
        if (!t->slots) return -2;
        for (int32_t i = 0; i < (int32_t)t->count; i++) keys_place(t, i);
    } else {
        t->slots[at] = key_slot(hash, id);
    }
    return id;
}

static int steps_init(StepTable *t) {
    t->capacity = 1 << 12;
    t->count = 0;
    t->slots = empty_slots(t->capacity, sizeof(StepEntry));
    return t->slots ? 0 : -1;
}

/* The slot of raw step `raw`: its entry, or the empty slot where it would go (key_id -1). */
static inline StepEntry *steps_slot(StepTable *t, set_t raw) {
    uint64_t mask = (uint64_t)t->capacity - 1;
    uint64_t at = set_hash(raw) & mask;
    while (t->slots[at].key_id != -1) {
        if (set_equal(t->slots[at].raw, raw)) return &t->slots[at];
        at = (at + 1) & mask;
    }
    return &t->slots[at];
}

/* Fill `slot` (from steps_slot, no other entry stored since) with where the raw step led. */
static int steps_store(StepTable *t, StepEntry *slot, set_t raw, int32_t key_id) {
    int fresh = slot->key_id == -1;
    slot->raw = raw;
    slot->key_id = key_id;
    if (fresh && 2 * ++t->count > t->capacity) {
        StepEntry *old = t->slots;
        int64_t old_capacity = t->capacity;
        t->capacity *= 2;
        t->slots = empty_slots(t->capacity, sizeof(StepEntry));
        if (!t->slots) { t->slots = old; t->capacity = old_capacity; return -1; }
        uint64_t mask = (uint64_t)t->capacity - 1;
        for (int64_t i = 0; i < old_capacity; i++) {
            if (old[i].key_id == -1) continue;
            uint64_t to = set_hash(old[i].raw) & mask;
            while (t->slots[to].key_id != -1) to = (to + 1) & mask;
            t->slots[to] = old[i];
        }
        free(old);
    }
    return 0;
}

static inline uint64_t pair_hash(int64_t first, int64_t second) {
    uint64_t h = mix(mix(0, (uint64_t)first), (uint64_t)second);
    return h ^ (h >> 29);
}

static inline int pair_before(const Fifo *a, const Fifo *b) {
    return a->first != b->first ? a->first < b->first : a->second < b->second;
}

static int queue_init(Queue *q) {
    memset(q, 0, sizeof(Queue));
    q->map_capacity = 1024;
    q->map_slots = empty_slots(q->map_capacity, sizeof(int32_t));
    return q->map_slots ? 0 : -1;
}

static void queue_free(Queue *q) {
    for (int64_t i = 0; i < q->fifos_count; i++) free(q->fifos[i].items);
    free(q->fifos); free(q->map_slots); free(q->heap);
}

/* The index of the fifo of (first, second), made when new; -1 on error. */
static int32_t queue_fifo(Queue *q, int64_t first, int64_t second) {
    uint64_t mask = (uint64_t)q->map_capacity - 1;
    uint64_t at = pair_hash(first, second) & mask;
    while (q->map_slots[at] != -1) {
        const Fifo *f = &q->fifos[q->map_slots[at]];
        if (f->first == first && f->second == second) return q->map_slots[at];
        at = (at + 1) & mask;
    }
    if (q->fifos_count >= INT32_MAX - 1) { no_memory(); return -1; }
    if (grow((void **)&q->fifos, &q->fifos_capacity, q->fifos_count + 1, sizeof(Fifo)) < 0) return -1;
    int32_t index = (int32_t)q->fifos_count++;
    Fifo *f = &q->fifos[index];
    memset(f, 0, sizeof(Fifo));
    f->first = first;
    f->second = second;
    if (2 * q->fifos_count > q->map_capacity) {
        free(q->map_slots);
        q->map_capacity *= 2;
        q->map_slots = empty_slots(q->map_capacity, sizeof(int32_t));
        if (!q->map_slots) return -1;
        mask = (uint64_t)q->map_capacity - 1;
        for (int32_t i = 0; i < (int32_t)q->fifos_count; i++) {
            uint64_t to = pair_hash(q->fifos[i].first, q->fifos[i].second) & mask;
            while (q->map_slots[to] != -1) to = (to + 1) & mask;
            q->map_slots[to] = i;
        }
    } else {
        q->map_slots[at] = index;
    }
    return index;
}

static void pairs_sift_up(Queue *q, int64_t i) {
    int32_t moving = q->heap[i];
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (!pair_before(&q->fifos[moving], &q->fifos[q->heap[parent]])) break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = moving;
}

static void pairs_pop(Queue *q) {
    int32_t last = q->heap[--q->heap_size];
    int64_t i = 0;
    for (;;) {
        int64_t child = 2 * i + 1;
        if (child >= q->heap_size) break;
        if (child + 1 < q->heap_size && pair_before(&q->fifos[q->heap[child + 1]], &q->fifos[q->heap[child]])) child++;
        if (!pair_before(&q->fifos[q->heap[child]], &q->fifos[last])) break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (q->heap_size > 0) q->heap[i] = last;
}

static int queue_push(Queue *q, int64_t first, int64_t second, int32_t record) {
    int32_t index = queue_fifo(q, first, second);
    if (index < 0) return -1;
    Fifo *f = &q->fifos[index];
    if (f->tail == f->capacity) {
        if (f->head > 0) {          /* the front part was taken already: move the rest down */
            memmove(f->items, f->items + f->head, sizeof(int32_t) * (size_t)(f->tail - f->head));
            f->tail -= f->head;
            f->head = 0;
        }
        if (f->tail == f->capacity && grow((void **)&f->items, &f->capacity, f->tail + 1, sizeof(int32_t)) < 0)
            return -1;
    }
    f->items[f->tail++] = record;
    if (!f->in_heap) {
        if (grow((void **)&q->heap, &q->heap_capacity, q->heap_size + 1, sizeof(int32_t)) < 0) return -1;
        f->in_heap = 1;
        q->heap[q->heap_size++] = index;
        pairs_sift_up(q, q->heap_size - 1);
    }
    q->size++;
    return 0;
}

/* The record of the least (first, second, push order), and its pair. */
static int32_t queue_pop(Queue *q, int64_t *first, int64_t *second) {
    Fifo *f = &q->fifos[q->heap[0]];
    int32_t record = f->items[f->head++];
    *first = f->first;
    *second = f->second;
    if (f->head == f->tail) {       /* empty: give its memory back and leave the heap of pairs */
        free(f->items);
        f->items = NULL;
        f->head = f->tail = f->capacity = 0;
        f->in_heap = 0;
        pairs_pop(q);
    }
    q->size--;
    return record;
}

/* ------------------------------------------------------------------------------- the walker's steps */

static inline Key key_of(const Graph *g, const State *s) {
    Key k;
    k.areas = s->areas;
    k.linked = set_and(s->consumed, g->linking);
    k.keys = s->keys;
    return k;
}

/* The blockers a route consumes, in order (route_steps), or the free steps of a closure. */
typedef struct {
    int *items;
    int64_t count, capacity;
} Trail;

static int trail_add(Trail *t, int b) {
    if (grow((void **)&t->items, &t->capacity, t->count + 1, sizeof(int)) < 0) return -1;
    t->items[t->count++] = b;
    return 0;
}

/* Consume blocker b at no cost: what it opens is reached, the items of every area newly reached are taken
   (their gains summed in the graph's areas: the rules' take_items on each area's items, made once in
   Python), a door spends a key. The boundary (the unreached dominator-tree nodes whose immediate
   dominator is reached) loses the nodes just reached and gains their unreached children, and `gain`, the
   sum of the positive tree values over it, follows. */
static inline void take_blocker(const Graph *g, State *s, int b) {
    const int A = g->areas_count;
    const Blocker *blocker = &g->blockers[b];
    s->consumed = set_with(s->consumed, b);
    s->keys -= blocker->key_unit;     /* a door: one key of its colour; 0 for the rest */
    s->frontier = set_or(s->frontier, blocker->blockers);
    if (s->goal < 0) s->goal = blocker->goal;
    nodes_t children = blocker->children;
    set_t new_areas = set_andnot(blocker->areas, s->areas);
    if (!set_empty(new_areas)) {
        s->areas = set_or(s->areas, new_areas);
        FOR_EACH(a, new_areas, {
            const Area *area = &g->areas[a];
            children = nodes_or(children, area->children);
            s->atk += area->atk;
            s->defense += area->defense;
            s->keys += area->keys;
            s->hp += area->hp;
            s->elixirs += area->hp;
            s->frontier = set_or(s->frontier, area->blockers);
            if (s->goal < 0) s->goal = area->goal;
        })
    }
    nodes_t newly = nodes_with(nodes_of_areas(new_areas), A + b);
    nodes_t leaving = nodes_and(s->boundary, newly);
    FOR_EACH_NODE(n, leaving, { s->gain -= g->positive[n]; })
    nodes_t added = nodes_andnot(nodes_andnot(nodes_andnot(children, newly), s->boundary),
                                 nodes_of(s->areas, s->consumed, A));
    FOR_EACH_NODE(n, added, { s->gain += g->positive[n]; })
    s->boundary = nodes_or(nodes_andnot(s->boundary, newly), added);
    s->frontier = set_andnot(set_and(s->frontier, g->allowed), s->consumed);
}

/* Keys of colour field c held (packed keys: Graph.fields). */
static inline int64_t keys_of_colour(const Graph *g, int64_t keys, int c) {
    return (keys >> g->field_shift[c]) & g->field_bits[c];
}

/* Whether the state's keys of colour c cover every allowed door of that colour left. */
static inline int keys_cover(const Graph *g, const State *s, int c) {
    return keys_of_colour(g, s->keys, c) >= set_count(set_andnot(g->field_allowed[c], s->consumed));
}

/* Whether a state with these consumed blockers can afford one more purchase of the shop: the money of the
   start and of every paying enemy consumed covers the first p + 1 prices, p the purchases made. */
static int affordable(const Graph *g, set_t consumed) {
    int64_t money = g->start_money;
    FOR_EACH(b, set_and(consumed, g->paying), { money += g->blockers[b].money; })
    int64_t p = set_count(set_and(consumed, g->purchases));
    return money >= (p + 1) * g->shop_start + g->shop_delta * (p * (p + 1) / 2);
}

/* The closure (dominance rule, application 1): take every free step, the lowest first, again and again: an
   enemy that does no damage at the state's stats (never a boss whose defeat ends the route), or a door once
   the keys of its colour cover every allowed door of that colour left.
   Each is appended to `taken` when it is not NULL. Returns -1 on error. */
static int close_state(Graph *g, State *s, Trail *taken) {
    for (;;) {
        CostTable *table = costs_at(g, s->atk, s->defense);
        if (!table) return -1;
        set_t free_steps = set_andnot(set_and(table->free, s->frontier), g->ending);
        set_t doors = set_and(s->frontier, g->door_mask);
        if (!set_empty(doors)) {
            /* (a door on the frontier is an allowed door left, so covering them all means a key to open it) */
            for (int c = 0; c < g->fields; c++) {
                set_t of_colour = set_and(doors, g->field_doors[c]);
                if (!set_empty(of_colour) && keys_cover(g, s, c)) free_steps = set_or(free_steps, of_colour);
            }
        }
        if (set_empty(free_steps)) return 0;
        int b = set_lowest(free_steps);
        if (taken && trail_add(taken, b) < 0) return -1;
        take_blocker(g, s, b);
    }
}

/* A step of the search: consume frontier blocker b at life cost `cost`, take the items of the areas it
   opens, then the closure (free steps appended to `taken` when not NULL). Returns -1 on error. */
static int consume(Graph *g, const State *from, int b, int64_t cost, State *out, Trail *taken) {
    State s = *from;
    s.hp -= cost;
    if (g->blockers[b].ends) {
        /* The boss: the route ends with this fight, and nothing it uncovers is taken. */
        s.consumed = set_with(s.consumed, b);
        s.goal = g->blockers[b].goal;
        s.frontier = (set_t){{0, 0}};
        *out = s;
        return 0;
    }
    take_blocker(g, &s, b);
    if (close_state(g, &s, taken) < 0) return -1;
    *out = s;
    return 0;
}

/* A state given from outside (a level's start, a state of the counting walk): its frontier kept to the
   allowed blockers, its boundary and gain worked out from what it reached (the same as take_blocker's,
   step by step), and with `close`, its closure taken (appended to `taken` when not NULL). */
static int settle_state(Graph *g, State *s, int close, Trail *taken) {
    const int A = g->areas_count;
    s->frontier = set_andnot(set_and(s->frontier, g->allowed), s->consumed);
    nodes_t children = {{0, 0, 0, 0}};
    FOR_EACH(a, s->areas, { children = nodes_or(children, g->areas[a].children); })
    FOR_EACH(b, s->consumed, { children = nodes_or(children, g->blockers[b].children); })
    s->boundary = nodes_andnot(children, nodes_of(s->areas, s->consumed, A));
    s->gain = 0;
    FOR_EACH_NODE(n, s->boundary, { s->gain += g->positive[n]; })
    return close ? close_state(g, s, taken) : 0;
}

/* Priced bound. The bound above lets every fight happen at the best stats the player can ever have, while
   real routes fight most enemies weaker. The priced bound is a Dijkstra over the damage taken from the
   state on, each blocker priced at the stats of the equipment within the damage
   reached so far; a route's final hp is at most hp + (elixirs within damage D) - D for some D at least the
   distance of a goal. It costs a Dijkstra per state, so it is asked lazily: a state that comes up for
   expansion gets it once, and if it is lower the state goes back into the queue under it (or is dropped).
   Every continuation of a child is a continuation of its parent, so a child's bound is also capped by its
   parent's. On suite level b060-01 this cut the expansions from 733,000 to 174,000; where the equipment
   comes early it changes little.

   dist(x), the least damage any route takes from this state before it reaches node x, is bounded below by a
   Dijkstra over damage where each blocker is priced at the stats of the equipment of the areas settled so
   far: whatever a route has reached after taking damage t lies within distance t, so its stats are at most
   those, and every fight costs it at least the price. When the stats grow at distance t, every blocker on
   the boundary is offered again from t. A route that takes damage D in all reaches a goal only if D >= G
   (the distance of the nearest goal) and takes only the elixirs of areas within D; so the final hp is at
   most hp + the largest, over D >= G, of (elixirs within D) - D. The distances are the least fixpoint of
   these rules, whatever the order of equal distances. With `enough`, the answer is `enough` as soon as it
   is known to be at least that, and with `floor`, a number at most `floor` as soon as it is known to be
   at most that: the search only asks whether it is lower than its bound, and whether it is still above
   the best route found.

   Sets *error on a failed cost callback. */
static int64_t priced_bound(Graph *g, const State *s, int64_t enough, int64_t floor, int *error) {
    int64_t atk = s->atk, defense = s->defense;
    set_t areas = s->areas, settled = s->consumed, front = s->frontier;
    /* Fewer than 129 blockers: the next one to settle is found by a scan of those offered (a handful to a
       few dozen), cheaper here than a heap. */
    int64_t dist[64 * SET_WORDS];
    set_t open = {{0, 0}};      /* offered, not settled */
    int64_t elixirs_left = g->total_elixirs - s->elixirs, taken = 0, best = 0;
    int goal_known = s->goal >= 0;
    CostTable *table = costs_at(g, atk, defense);
    if (!table) { *error = 1; return 0; }
    set_t offering = front;
    int64_t at = 0;
    for (;;) {
        FOR_EACH(b, offering, {
            int64_t cost = table->costs[b];
            if (cost >= 0 && (!set_has(open, b) || at + cost < dist[b])) {
                dist[b] = at + cost;
                open = set_with(open, b);
            }
        })
        if (set_empty(open)) break;
        int b = -1;
        FOR_EACH(c, open, { if (b < 0 || dist[c] < dist[b]) b = c; })
        at = dist[b];
        open = set_without(open, b);
        if (goal_known) {
            if (elixirs_left - at <= best) break;
            if (s->hp + best >= enough) return enough;
        } else if (s->hp + elixirs_left - at <= floor) {
            return s->hp + elixirs_left - at;
        }
        const Blocker *blocker = &g->blockers[b];
        settled = set_with(settled, b);
        front = set_without(front, b);
        if (!goal_known && blocker->goal >= 0) { goal_known = 1; best = taken - at; }
        set_t added = blocker->blockers;
        int stronger = 0;
        set_t new_areas = set_andnot(blocker->areas, areas);
        FOR_EACH(a, new_areas, {
            const Area *area = &g->areas[a];
            areas = set_with(areas, a);
            taken += area->hp;
            if (!goal_known && area->goal >= 0) { goal_known = 1; best = taken - at; }
            else if (goal_known && taken - at > best) best = taken - at;
            if (area->atk || area->defense) { atk += area->atk; defense += area->defense; stronger = 1; }
            added = set_or(added, area->blockers);
        })
        added = set_andnot(set_andnot(set_and(added, g->allowed), settled), front);
        front = set_or(front, added);
        if (stronger) {
            table = costs_at(g, atk, defense);
            if (!table) { *error = 1; return 0; }
            offering = front;
        } else {
            offering = added;
        }
    }
    if (!goal_known) return NO_WIN;
    return s->hp + best;
}

/* Steiner bound. The bound above also lets an area entered through either of two blockers hang from
   the area above both in the dominator tree, so it takes that area's elixirs without paying for either way
   in. The Steiner bound pays for the ways in. Take the region graph with each
   blocker priced at its least damage (doors 0), and merge the blockers of no least damage into the areas
   they join (supernodes: whatever reaches one node of a supernode reaches all of it for nothing). A route
   from the state enters every blocker it consumes once, from something reached before, so the blockers it
   consumes with, for each, the node it was entered from, form an arborescence rooted at what the state has
   reached, which holds every supernode whose elixirs the route takes and one that holds a goal. So the
   route's damage plus the elixirs it leaves is at least the least cost of such an arborescence when each
   unreached supernode's elixirs may be left at the price of the elixirs (a rooted prize-collecting Steiner
   arborescence with the prizes as arcs from the root, after Ljubic et al.). Any feasible solution of the dual
   of its cut relaxation is a lower bound on that least cost: sets W of nodes holding a terminal but not the
   root, each raised by y(W) >= 0, so that no arc is charged more than its cost by the sets it enters (an arc
   from the root to a supernode's prize included). Wong's dual ascent builds one: for each terminal in turn
   (the goal, then each supernode with elixirs, in node order), W is what reaches it along arcs whose cost is
   not used up yet, raised by the least cost left on an arc into it, until the root reaches the terminal
   along used-up arcs or its prize is used up. So the final hp is at most hp + (elixirs not taken) -
   (sum of the raises). On the states of suite level b120-01 it came out equal to the exact optimum of that
   arborescence problem (CP-SAT) on every one checked, 40 to 55 hp below the dominator-tree relaxation. It
   costs a few microseconds, so it is asked lazily like the priced bound, and before it.

   SteinerGraph holds its graph, with the chain bound's tables. */
#define MAX_TAILS 24
#define NO_ARC INT64_MAX
typedef struct SteinerGraph {
    int supers, count;                  /* nodes: supernodes 0..supers-1, then the costly blockers */
    int area_node[64 * SET_WORDS];      /* per area: its supernode */
    int node_blocker[64 * SET_WORDS];   /* per costly node: its blocker */
    int64_t cost[64 * SET_WORDS];       /* per costly node: its least damage */
    int64_t prize[64 * SET_WORDS];      /* per supernode: the elixirs of its areas */
    int64_t elixirs;                    /* of all areas (an elixir gives at least 1 hp) */
    set_t super_areas[64 * SET_WORDS];  /* per supernode: its areas */
    set_t goals;                        /* the nodes that hold a goal */
    set_t out[64 * SET_WORDS];          /* per node: the costly nodes next to it (its arcs out) */
    set_t next_supers[64 * SET_WORDS];  /* per costly node: the supernodes next to it */
    int tails_count[64 * SET_WORDS];
    int8_t tails[64 * SET_WORDS][MAX_TAILS];    /* per costly node: the nodes of its arcs in */
    set_t chain_adj[64 * SET_WORDS];    /* per blocker: the blockers it opens (next to it or to its areas) */
    uint64_t heap[(64 * SET_WORDS + 1) * 64 * SET_WORDS];      /* piece_distances' working space */
    /* The chain bound's distances (piece_distances): the areas with equipment, numbered, and per weighting
       met so far the distance from each blocker to each of them, in an open-addressing table. */
    int piece_count, piece_of_area[64 * SET_WORDS];
    /* The entry bound's goal sides (entry_bound): nested sets of nodes holding every goal, each with the
       elixirs of its supernodes. */
    int sides_count;
    set_t side_nodes[64 * SET_WORDS];
    int64_t side_prize[64 * SET_WORDS], side_distance[64 * SET_WORDS];
    DistTable *dists;
    int64_t dists_capacity, dists_used;
} SteinerGraph;

/* The working space of one thread's Steiner ascents. */
typedef struct Scratch {
    int64_t residual[64 * SET_WORDS][MAX_TAILS], root_residual[64 * SET_WORDS];
} Scratch;

/* The representative of x's set in a union-find forest, halving the way as it goes. */
static int root_of(int *parent, int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* The entry bound's goal sides (header comment of entry_possible). */
static void build_sides(SteinerGraph *c) {
    int64_t dist[64 * SET_WORDS];
    for (int n = 0; n < c->count; n++) dist[n] = set_has(c->goals, n) ? 0 : NO_ARC;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int n = 0; n < c->count; n++) {
            int64_t best = dist[n];
            FOR_EACH(m, c->out[n], { if (dist[m] != NO_ARC && c->cost[m] + dist[m] < best) best = c->cost[m] + dist[m]; })
            if (n >= c->supers)
                FOR_EACH(t, c->next_supers[n], { if (dist[t] < best) best = dist[t]; })
            if (best < dist[n]) { dist[n] = best; changed = 1; }
        }
    }
    c->sides_count = 0;
    for (int p = 0; p < c->supers; p++) {
        if (c->prize[p] <= 0 || dist[p] == NO_ARC) continue;
        set_t side = c->goals;
        int64_t prize = 0;
        for (int n = 0; n < c->supers; n++)
            if (dist[n] <= dist[p]) { side = set_with(side, n); }
        for (int n = 0; n < c->supers; n++) if (set_has(side, n)) prize += c->prize[n];
        int seen = 0;
        for (int k = 0; k < c->sides_count; k++) if (set_equal(c->side_nodes[k], side)) seen = 1;
        if (seen) continue;
        int k = c->sides_count++;
        while (k > 0 && c->side_distance[k - 1] > dist[p]) {     /* nearest the goal first */
            c->side_nodes[k] = c->side_nodes[k - 1];
            c->side_prize[k] = c->side_prize[k - 1];
            c->side_distance[k] = c->side_distance[k - 1];
            k--;
        }
        c->side_nodes[k] = side;
        c->side_prize[k] = prize;
        c->side_distance[k] = dist[p];
    }
}

/* The Steiner bound's graph, numbered: supernodes by their lowest area, then those of free blockers alone,
   then the costly blockers in order. Leaves g->steiner NULL on a level with more
   than 128 nodes, a costly blocker with more than MAX_TAILS neighbours, or a shop's purchases. */
static int build_steiner_graph(Graph *g) {
    const int A = g->areas_count, B = g->blockers_count;
    g->steiner = NULL;
    /* A shop's purchase chains go without it: with them the chain bound was found below the optimum (a
       random tower of the tests), which the tree and priced bounds never were ("Towers"). */
    if (!set_empty(g->purchases)) return 0;
    SteinerGraph *c = calloc(1, sizeof(SteinerGraph));
    if (!c) { no_memory(); return -1; }
    int parent[2 * 64 * SET_WORDS], node_of_root[2 * 64 * SET_WORDS], blocker_node[64 * SET_WORDS];
    for (int i = 0; i < A + B; i++) { parent[i] = i; node_of_root[i] = -1; }
    set_t live = {{0, 0}}, free_blockers = {{0, 0}};
    for (int b = 0; b < B; b++)
        if (set_has(g->allowed, b) && g->blockers[b].least >= 0) {
            live = set_with(live, b);
            if (g->blockers[b].least == 0) free_blockers = set_with(free_blockers, b);
        }
#define ROOT_OF(x) root_of(parent, (x))
    FOR_EACH(b, free_blockers, {
        FOR_EACH(a, g->blockers[b].areas, { parent[ROOT_OF(A + b)] = ROOT_OF(a); })
        FOR_EACH(d, set_and(g->blockers[b].blockers, free_blockers), { parent[ROOT_OF(A + b)] = ROOT_OF(A + d); })
    })
    int n = 0;
    for (int a = 0; a < A; a++) {
        int r = ROOT_OF(a);
        if (node_of_root[r] < 0) node_of_root[r] = n++;
        c->area_node[a] = node_of_root[r];
    }
    FOR_EACH(b, free_blockers, {
        int r = ROOT_OF(A + b);
        if (node_of_root[r] < 0) node_of_root[r] = n++;
        blocker_node[b] = node_of_root[r];
    })
#undef ROOT_OF
    c->supers = n;
    set_t costly = set_andnot(live, free_blockers);
    if (n + set_count(costly) > 64 * SET_WORDS) { free(c); return 0; }
    FOR_EACH(b, costly, {
        c->node_blocker[n] = b;
        c->cost[n] = g->blockers[b].least;
        blocker_node[b] = n++;
    })
    c->count = n;
    for (int a = 0; a < A; a++) {
        c->prize[c->area_node[a]] += g->areas[a].hp;
        c->elixirs += g->areas[a].hp;
        c->super_areas[c->area_node[a]] = set_with(c->super_areas[c->area_node[a]], a);
        if (g->areas[a].goal >= 0) c->goals = set_with(c->goals, c->area_node[a]);
    }
    FOR_EACH(b, set_and(live, g->goal_blockers), { c->goals = set_with(c->goals, blocker_node[b]); })
    for (int m = c->supers; m < c->count; m++) {
        const Blocker *blocker = &g->blockers[c->node_blocker[m]];
        set_t tails = {{0, 0}}, supers = {{0, 0}};
        FOR_EACH(a, blocker->areas, { supers = set_with(supers, c->area_node[a]); })
        FOR_EACH(d, set_and(blocker->blockers, free_blockers), { supers = set_with(supers, blocker_node[d]); })
        tails = supers;
        FOR_EACH(d, set_and(blocker->blockers, costly), { tails = set_with(tails, blocker_node[d]); })
        if (set_count(tails) > MAX_TAILS) { free(c); return 0; }
        c->next_supers[m] = supers;
        FOR_EACH(t, tails, {
            c->tails[m][c->tails_count[m]++] = (int8_t)t;
            c->out[t] = set_with(c->out[t], m);
        })
    }
    for (int b = 0; b < B; b++) {
        c->chain_adj[b] = g->blockers[b].blockers;
        FOR_EACH(a, g->blockers[b].areas, { c->chain_adj[b] = set_or(c->chain_adj[b], g->areas[a].blockers); })
    }
    build_sides(c);
    c->piece_count = 0;
    for (int a = 0; a < A; a++)
        c->piece_of_area[a] = (g->areas[a].atk || g->areas[a].defense) ? c->piece_count++ : -1;
    c->dists_capacity = 64;
    c->dists = malloc(sizeof(DistTable) * (size_t)c->dists_capacity);
    g->scratch = malloc(sizeof(Scratch));
    if (!c->dists || !g->scratch) {
        free(c->dists); free(g->scratch); g->scratch = NULL; free(c);
        no_memory();
        return -1;
    }
    for (int64_t i = 0; i < c->dists_capacity; i++) c->dists[i].first = DIST_EMPTY;
    g->steiner = c;
    return 0;
}

/* Grow `rooted`, the nodes the root reaches along arcs of no residual cost, from `seeds`, which just
   joined it. */
static set_t grow_rooted(const SteinerGraph *c, const Scratch *w, set_t live, set_t rooted, set_t seeds) {
    while (!set_empty(seeds)) {
        int n = set_lowest(seeds);
        seeds = set_without(seeds, n);
        if (n >= c->supers) {   /* a costly node enters its supernodes for nothing */
            set_t fresh = set_andnot(c->next_supers[n], rooted);
            rooted = set_or(rooted, fresh);
            seeds = set_or(seeds, fresh);
        }
        FOR_EACH(m, set_andnot(set_and(c->out[n], live), rooted), {
            for (int k = 0; k < c->tails_count[m]; k++)
                if (c->tails[m][k] == n && w->residual[m][k] == 0) {
                    rooted = set_with(rooted, m);
                    seeds = set_with(seeds, m);
                    break;
                }
        })
    }
    return rooted;
}

/* cost: per costly node, its price (NO_ARC: it cannot be fought); NULL for the least damages. mandatory:
   supernodes every route counted must reach, as the goal (the chain bound's pieces), ascended after the
   goal and before the elixirs, in node order. enough: the ascent stops once the bound is down to it
   (NO_WIN: never), as the bound only falls from there on. */
static int64_t steiner_ascent(const Graph *g, Scratch *w, const State *s, const int64_t *cost,
                              set_t mandatory, int64_t enough, int side) {
    const SteinerGraph *c = g->steiner;
    if (!cost) cost = c->cost;
    set_t root = {{0, 0}}, live = {{0, 0}};
    int64_t prizes = c->elixirs - s->elixirs;       /* the elixirs not taken yet */
    for (int m = 0; m < c->supers; m++)
        if (!set_empty(set_and(c->super_areas[m], s->areas))) root = set_with(root, m);
    for (int m = c->supers; m < c->count; m++) {
        if (set_has(s->consumed, c->node_blocker[m])) root = set_or(set_with(root, m), c->next_supers[m]);
        else live = set_with(live, m);      /* (a consumed blocker's supernodes are reached for nothing) */
    }
    set_t goals = c->goals, sidenodes = {{0, 0}};
    if (side >= 0) {
        sidenodes = c->side_nodes[side];
        if (!set_empty(set_and(root, sidenodes))) return NO_ARC;     /* entered already: no bound */
        goals = sidenodes;
        prizes -= c->side_prize[side];
    }
    FOR_EACH(m, live, {
        int from_root = 0;
        for (int k = 0; k < c->tails_count[m]; k++) {
            if (set_has(root, c->tails[m][k])) { from_root = 1; w->residual[m][k] = NO_ARC; }
            else w->residual[m][k] = cost[m];
        }
        w->root_residual[m] = from_root ? cost[m] : NO_ARC;
    })
    set_t rooted = root;
    int64_t lower = 0;
    mandatory = set_andnot(mandatory, root);
    for (int terminal = -2; terminal < c->supers; terminal++) {
        set_t todo;
        int64_t prize_left;
        if (terminal == -2) {
            if (side < 0 && s->goal >= 0) continue;
            prize_left = NO_ARC;
            todo = goals;
        } else if (terminal == -1) {
            if (set_empty(mandatory)) continue;
            /* one mandatory supernode per round, the lowest first; the round repeats while any is left */
            int m = set_lowest(mandatory);
            mandatory = set_without(mandatory, m);
            if (!set_empty(mandatory)) terminal--;
            prize_left = NO_ARC;
            todo = set_with((set_t){{0, 0}}, m);
        } else {
            if (set_has(root, terminal) || c->prize[terminal] <= 0 || set_has(sidenodes, terminal)) continue;
            prize_left = c->prize[terminal];
            todo = set_with((set_t){{0, 0}}, terminal);
        }
        if (!set_empty(set_and(todo, rooted))) continue;
        set_t cut_side = todo, joined = {{0, 0}};
        int reached = 0;
        for (;;) {
            /* cut_side: the nodes that reach the terminal along arcs of no residual cost */
            while (!set_empty(todo)) {
                int n = set_lowest(todo);
                todo = set_without(todo, n);
                if (set_has(rooted, n)) { reached = 1; break; }
                if (n < c->supers) {
                    set_t fresh = set_andnot(set_and(c->out[n], live), cut_side);
                    cut_side = set_or(cut_side, fresh);
                    todo = set_or(todo, fresh);
                } else {
                    if (w->root_residual[n] == 0) { reached = 1; break; }
                    for (int k = 0; k < c->tails_count[n]; k++) {
                        int t = c->tails[n][k];
                        if (w->residual[n][k] == 0 && !set_has(cut_side, t)) {
                            cut_side = set_with(cut_side, t);
                            todo = set_with(todo, t);
                        }
                    }
                }
            }
            if (reached) break;
            int64_t delta = prize_left;
            set_t entered = set_and(cut_side, live);
            FOR_EACH(m, entered, {
                if (w->root_residual[m] < delta) delta = w->root_residual[m];
                for (int k = 0; k < c->tails_count[m]; k++)
                    if (w->residual[m][k] < delta && !set_has(cut_side, c->tails[m][k])) delta = w->residual[m][k];
            })
            if (delta == NO_ARC) return NO_WIN;      /* no way to a goal */
            lower += delta;
            if (s->hp + prizes - lower <= enough) return s->hp + prizes - lower;
            FOR_EACH(m, entered, {
                if (w->root_residual[m] != NO_ARC) {
                    w->root_residual[m] -= delta;
                    if (w->root_residual[m] == 0) { joined = set_with(joined, m); reached = 1; }
                }
                for (int k = 0; k < c->tails_count[m]; k++) {
                    int t = c->tails[m][k];
                    if (w->residual[m][k] != NO_ARC && !set_has(cut_side, t)) {
                        w->residual[m][k] -= delta;
                        if (w->residual[m][k] == 0) {
                            todo = set_with(todo, t);
                            if (set_has(rooted, t)) { joined = set_with(joined, m); reached = 1; }
                        }
                    }
                }
            })
            if (prize_left != NO_ARC) {
                prize_left -= delta;
                if (prize_left == 0) reached = 1;   /* or the terminal's prize is paid off */
            }
            if (reached) break;
            cut_side = set_or(cut_side, todo);
        }
        joined = set_andnot(joined, rooted);
        if (!set_empty(joined)) rooted = grow_rooted(c, w, live, set_or(rooted, joined), joined);
    }
    return s->hp + prizes - lower;
}

static int64_t steiner_bound_priced(const Graph *g, Scratch *w, const State *s, const int64_t *cost,
                                    set_t mandatory, int64_t enough) {
    return steiner_ascent(g, w, s, cost, mandatory, enough, -1);
}

static int64_t steiner_bound(const Graph *g, const State *s) {
    return steiner_bound_priced(g, g->scratch, s, NULL, (set_t){{0, 0}}, NO_WIN);
}

/* Chain bound. The Steiner bound still prices every fight at the least damage, as if the route took all its
   equipment before its first fight; real routes fight most enemies before their last piece. On suite level
   b120-01 that is the whole of its slack: with every fight priced at the best stats, the best final hp
   from each of eight states sampled from its queue came out equal to the Steiner bound to within 4 hp, 35
   to 70 hp above the truth (docs/bench-passages.md). The chain bound charges for
   the order. Let P be the pieces of equipment not taken yet that the route can still reach, and let the
   route take F = {e1, ..., ek} of them in that order. In phase j (after it took e1..ej, the set Cj) its stats
   are at most S(Cj), the state's stats plus the gains of Cj, so a blocker x consumed then costs at least
   cj(x) = max(least damage of x, damage at S(Cj)) (doors 0). Summing by parts, with p(x) the phase of x and
   Rj what the route consumed in phases up to j,
       sum_x c_p(x)(x) = sum_x ck(x) + sum_{j<k} sum_{x in Rj} (cj(x) - cj+1(x)).
   The route's arborescence (above) holds the goal and every piece of F, since the route took them all; so
   with the elixirs it leaves, the first sum is bounded by the Steiner bound at the prices ck with F's pieces
   as terminals every arborescence must hold, like the goal (their supernodes, ascended after the goal).
   Without them the bound missed the whole price of the way to a piece off the way to the goal: on 100
   states of b120-01's queue, 17 stayed above its optimum, against 4 with them. Rj reaches every piece of
   Cj+1 (the route took ej+1 at the end of phase j), so its term is at least the distance, over blockers
   weighted cj - cj+1 >= 0, from the state to the farthest piece of Cj+1. So the final hp is at most
   Steiner(F) - extra(F), where extra(F) is the least, over the orders of F, of those distances summed: a
   dynamic program over the subsets of P, one step per piece added. The bound is the largest of these over
   every F in P (F empty: no more equipment, every fight at the state's stats). Several things keep it
   affordable. Only the CHAIN_PIECES pieces farthest at the state's own stats are followed one by one, the
   rest counted as taken now (that raises every phase's stats, which only lowers prices). Steiner(P)
   without pieces to reach, at the lowest prices, caps Steiner(F) for every F (it relaxes the routes that end
   with F too); it is asked first, then each set F in the order of the cap minus extra(F), while that can
   beat the floor. An ascent stops once its bound cannot beat the floor (every raise only lowers it). A state
   passes to the states made from it (ChainHint) the sets F with which no route from it beats the floor; a
   state that follows the same pieces skips them, since its routes are routes of the state it was made from
   and the floor only rises. Where it is on, the plain Steiner bound is not asked: the cap is an ascent of
   the same kind at lower prices, and the state's own bound of least damages caps Steiner(F) in its place
   (not the bound the state is queued with, which may be its parent's chain bound, extra already taken off).
   It is asked lazily, after the priced bound. It costs a few dozen Steiner ascents per state, several
   expansions' time; the race runs a search with it beside one without (passages_search._race), and the
   search can bound states on both cores (its `threads`: Helper). */

/* A blocker's price at some stats: its damage there, at least its least damage (doors 0; NO_ARC when it
   cannot be fought there). */
static inline int64_t chain_price(const Graph *g, const int64_t *costs, int b) {
    const Blocker *blocker = &g->blockers[b];
    if (blocker->is_door) return 0;
    if (costs[b] < 0 || blocker->least < 0) return NO_ARC;
    return costs[b] > blocker->least ? costs[b] : blocker->least;
}

/* The table's chain prices: per blocker (chain_price), then per costly Steiner node (its blocker's). */
static const int64_t *chain_prices_of(const Graph *g, CostTable *table) {
    if (!table->prices) {
        const SteinerGraph *c = g->steiner;
        const int B = g->blockers_count;
        int64_t *prices = malloc(sizeof(int64_t) * (size_t)(B + c->count));
        if (!prices) { no_memory(); return NULL; }
        for (int b = 0; b < B; b++) prices[b] = chain_price(g, table->costs, b);
        for (int m = c->supers; m < c->count; m++) prices[B + m] = prices[c->node_blocker[m]];
        table->prices = prices;
    }
    return table->prices;
}

static inline void heap_push(uint64_t *heap, int *size, uint64_t item) {
    int at = (*size)++;
    while (at > 0) {
        int parent = (at - 1) / 2;
        if (heap[parent] <= item) break;
        heap[at] = heap[parent];
        at = parent;
    }
    heap[at] = item;
}

static inline uint64_t heap_pop(uint64_t *heap, int *size) {
    uint64_t top = heap[0], last = heap[--(*size)];
    int at = 0;
    for (;;) {
        int child = 2 * at + 1;
        if (child >= *size) break;
        if (child + 1 < *size && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= last) break;
        heap[at] = heap[child];
        at = child;
    }
    heap[at] = last;
    return top;
}

/* The distances of one weighting of the blockers (weight[b] NO_ARC: not passable; only the allowed ones
   pass), made once per key: for each piece of equipment and each blocker f, the least weight of a way
   that enters f first and ends in the piece's area, f included (NO_ARC: none). A reverse Dijkstra per
   piece. `weight` is asked only when the key is new (fill_weight), since making it costs a pass too.
   Returns NULL when out of memory. */
static const int64_t *piece_distances(const Graph *g, int64_t first, int64_t second,
                                      void (*fill_weight)(const Graph *, const void *, int64_t *), const void *how) {
    SteinerGraph *c = g->steiner;
    const int B = g->blockers_count;
    uint64_t mask = (uint64_t)c->dists_capacity - 1;
    uint64_t at = (((uint64_t)first * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)second * 0xc2b2ae3d27d4eb4fULL)) & mask;
    while (c->dists[at].first != DIST_EMPTY) {
        if (c->dists[at].first == first && c->dists[at].second == second) return c->dists[at].dist;
        at = (at + 1) & mask;
    }
    if (2 * (c->dists_used + 1) > c->dists_capacity) {
        int64_t old_capacity = c->dists_capacity;
        DistTable *old = c->dists, *fresh = malloc(sizeof(DistTable) * (size_t)old_capacity * 2);
        if (!fresh) { no_memory(); return NULL; }
        for (int64_t i = 0; i < old_capacity * 2; i++) fresh[i].first = DIST_EMPTY;
        c->dists = fresh;
        c->dists_capacity = old_capacity * 2;
        mask = (uint64_t)c->dists_capacity - 1;
        for (int64_t i = 0; i < old_capacity; i++) {
            if (old[i].first == DIST_EMPTY) continue;
            uint64_t to = (((uint64_t)old[i].first * 0x9e3779b97f4a7c15ULL)
                           ^ ((uint64_t)old[i].second * 0xc2b2ae3d27d4eb4fULL)) & mask;
            while (fresh[to].first != DIST_EMPTY) to = (to + 1) & mask;
            fresh[to] = old[i];
        }
        free(old);
        return piece_distances(g, first, second, fill_weight, how);
    }
    int64_t *dist = malloc(sizeof(int64_t) * (size_t)c->piece_count * (size_t)B);
    if (!dist) { no_memory(); return NULL; }
    int64_t weight[64 * SET_WORDS];
    fill_weight(g, how, weight);
    set_t passable = {{0, 0}};
    FOR_EACH(b, g->allowed, { if (weight[b] != NO_ARC) passable = set_with(passable, b); })
    uint64_t *heap = c->heap;
    for (int a = 0; a < g->areas_count; a++) {
        int piece = c->piece_of_area[a];
        if (piece < 0) continue;
        int64_t *to_piece = dist + (size_t)piece * (size_t)B;
        int heap_size = 0;
        for (int b = 0; b < B; b++) to_piece[b] = NO_ARC;
        FOR_EACH(b, set_and(passable, g->areas[a].blockers), {
            to_piece[b] = weight[b];
            heap_push(heap, &heap_size, (uint64_t)weight[b] << 8 | (uint64_t)b);
        })
        set_t settled = {{0, 0}};
        while (heap_size > 0) {
            uint64_t top = heap_pop(heap, &heap_size);
            int f = (int)(top & 0xff);
            if (set_has(settled, f) || (int64_t)(top >> 8) != to_piece[f]) continue;     /* stale */
            settled = set_with(settled, f);
            /* a way entering a neighbour h first goes on through f */
            FOR_EACH(h, set_andnot(set_and(c->chain_adj[f], passable), settled), {
                if (to_piece[f] + weight[h] < to_piece[h]) {
                    to_piece[h] = to_piece[f] + weight[h];
                    heap_push(heap, &heap_size, (uint64_t)to_piece[h] << 8 | (uint64_t)h);
                }
            })
        }
    }
    c->dists[at].first = first;
    c->dists[at].second = second;
    c->dists[at].dist = dist;
    c->dists_used++;
    return dist;
}

/* The least weight from the state's reach to each of the given pieces' areas, by area (0 for one reached,
   NO_ARC for none), from the distances of piece_distances. A least way from the reach leaves it for the last
   time over a frontier blocker and then meets nothing reached, so it weighs what it weighs in the whole
   graph; and every way from a frontier blocker is a way from the reach, where reached things weigh
   nothing. So the distance is the least, over the frontier, of the whole graph's distance: the same as a
   Dijkstra from the reach. */
static void reach_distances(const Graph *g, const State *s, const int64_t *dist, const int *areas, int count,
                            int64_t *area_dist) {
    const SteinerGraph *c = g->steiner;
    const int B = g->blockers_count;
    for (int i = 0; i < count; i++) {
        int a = areas[i];
        if (set_has(s->areas, a)) { area_dist[a] = 0; continue; }
        const int64_t *to_piece = dist + (size_t)c->piece_of_area[a] * (size_t)B;
        int64_t least = NO_ARC;
        FOR_EACH(f, s->frontier, { if (to_piece[f] < least) least = to_piece[f]; })
        area_dist[a] = least;
    }
}

/* The weightings of the chain bound: passable or not; the price at some stats; the fall of the price
   from one stats to the next. */
static void weigh_passable(const Graph *g, const void *how, int64_t *weight) {
    (void)how;
    for (int b = 0; b < g->blockers_count; b++)
        weight[b] = (g->blockers[b].is_door || g->blockers[b].least >= 0) ? 0 : NO_ARC;
}

static void weigh_price(const Graph *g, const void *how, int64_t *weight) {
    const int64_t *price = how;
    for (int b = 0; b < g->blockers_count; b++) weight[b] = price[b];
}

static void weigh_fall(const Graph *g, const void *how, int64_t *weight) {
    const int64_t *const *prices = how;      /* before, after */
    for (int b = 0; b < g->blockers_count; b++)
        weight[b] = prices[0][b] == NO_ARC ? NO_ARC : prices[0][b] - prices[1][b];
}

/* The chain prices at some stats, and the distances of a weighting, under the tables' lock. *id gets the
   cost table's id (the key of the distances of weightings made of these prices). */
static const int64_t *prices_at(Graph *g, int64_t atk, int64_t defense, int64_t *id) {
    lock_tables(g);
    CostTable *table = costs_at_locked(g, atk, defense);
    const int64_t *prices = table ? chain_prices_of(g, table) : NULL;
    if (table) *id = table->id;
    unlock_tables(g);
    return prices;
}

static const int64_t *distances_of(const Graph *g, int64_t first, int64_t second,
                                   void (*fill_weight)(const Graph *, const void *, int64_t *), const void *how) {
    lock_tables(g);
    const int64_t *dist = piece_distances(g, first, second, fill_weight, how);
    unlock_tables(g);
    return dist;
}

/* w: the calling thread's working space. `own`, when not NULL, gets the hint for the states made from this
   one (set only when the bound is above the floor). Thread-safe against another call on the same graph
   while g->tables_lock is set: the tables it may add to are only touched under it. */
static int64_t chain_bound_side(Graph *g, Scratch *w, const State *s, int64_t flat, int64_t floor, ChainHint *own,
                                int *error, int side);
static int64_t chain_bound(Graph *g, Scratch *w, const State *s, int64_t flat, int64_t floor, ChainHint *own,
                           int *error) {
    return chain_bound_side(g, w, s, flat, floor, own, error, -1);
}

static int64_t chain_bound_side(Graph *g, Scratch *w, const State *s, int64_t flat, int64_t floor, ChainHint *own,
                                int *error, int side) {
    if (flat == NO_WIN) return NO_WIN;
    const SteinerGraph *c = g->steiner;
    const int A = g->areas_count, B = g->blockers_count;
    /* The pieces of equipment any route can still take: in the areas reached over blockers that can be
       fought at all. */
    int64_t area_dist[64 * SET_WORDS];
    int pieces[64 * SET_WORDS] = {0}, count = 0;
    for (int a = 0; a < A; a++)
        if (c->piece_of_area[a] >= 0 && !set_has(s->areas, a)) pieces[count++] = a;
    const int64_t *dist = distances_of(g, -1, -1, weigh_passable, NULL);
    if (!dist) { *error = 1; return 0; }
    reach_distances(g, s, dist, pieces, count, area_dist);
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (area_dist[pieces[i]] != NO_ARC) pieces[kept++] = pieces[i];
    count = kept;
    int64_t atk = s->atk, defense = s->defense;
    if (count > CHAIN_PIECES) {
        /* Track the CHAIN_PIECES pieces farthest at the state's own stats; the rest count as taken now,
           which only lowers every price. */
        int64_t now_id;
        const int64_t *price_now = prices_at(g, s->atk, s->defense, &now_id);
        if (!price_now) { *error = 1; return 0; }
        dist = distances_of(g, now_id, -1, weigh_price, price_now);
        if (!dist) { *error = 1; return 0; }
        reach_distances(g, s, dist, pieces, count, area_dist);
        for (int i = 1; i < count; i++) {       /* farthest first, then by area (a stable insertion sort) */
            int a = pieces[i], j = i;
            while (j > 0 && area_dist[pieces[j - 1]] < area_dist[a]) { pieces[j] = pieces[j - 1]; j--; }
            pieces[j] = a;
        }
        for (int i = CHAIN_PIECES; i < count; i++) {
            atk += g->areas[pieces[i]].atk;
            defense += g->areas[pieces[i]].defense;
        }
        count = CHAIN_PIECES;
    }
    const int masks = 1 << count;
    const int64_t *price[1 << CHAIN_PIECES];
    int64_t mask_key[1 << CHAIN_PIECES], extra[1 << CHAIN_PIECES];
    for (int mask = 0; mask < masks; mask++) {
        int64_t mask_atk = atk, mask_defense = defense;
        for (int i = 0; i < count; i++)
            if (mask >> i & 1) {
                mask_atk += g->areas[pieces[i]].atk;
                mask_defense += g->areas[pieces[i]].defense;
            }
        if (!(price[mask] = prices_at(g, mask_atk, mask_defense, &mask_key[mask]))) { *error = 1; return 0; }
    }
    /* The full set's prices are the lowest, so its Steiner bound holds for the routes that end with any
       subset too: it caps them all. Asked first: when it settles the state, no distance is needed. */
    int64_t cap = steiner_ascent(g, w, s, price[masks - 1] + B, (set_t){{0, 0}}, floor, side);
    if (cap > flat) cap = flat;
    if (cap <= floor) return cap;       /* (NO_WIN too) */
    /* The distances of one step depend on the stats before and after it only: pieces of the same gain
       share them. */
    int64_t cached_key[CHAIN_PIECES << CHAIN_PIECES][2], cached_dist[CHAIN_PIECES << CHAIN_PIECES][CHAIN_PIECES];
    int cached = 0;
    /* extra[F]: the least extra damage of taking the pieces of F, one at a time, over pricing every fight at
       F's stats. */
    extra[0] = 0;
    for (int mask = 1; mask < masks; mask++) {
        extra[mask] = NO_ARC;
        for (int i = 0; i < count; i++) {
            if (!(mask >> i & 1)) continue;
            int prev = mask ^ (1 << i);
            if (extra[prev] >= extra[mask]) continue;     /* (a step costs at least 0) */
            int hit = -1;
            for (int k = 0; k < cached && hit < 0; k++)
                if (cached_key[k][0] == mask_key[prev] && cached_key[k][1] == mask_key[mask]) hit = k;
            if (hit < 0) {
                const int64_t *both[2] = {price[prev], price[mask]};
                const int64_t *fall = distances_of(g, mask_key[prev], mask_key[mask], weigh_fall, both);
                if (!fall) { *error = 1; return 0; }
                reach_distances(g, s, fall, pieces, count, area_dist);
                hit = cached++;
                cached_key[hit][0] = mask_key[prev];
                cached_key[hit][1] = mask_key[mask];
                for (int j = 0; j < count; j++) cached_dist[hit][j] = area_dist[pieces[j]];
            }
            int64_t step = 0;
            for (int j = 0; j < count; j++)
                if (mask >> j & 1 && cached_dist[hit][j] > step) step = cached_dist[hit][j];
            if (step != NO_ARC && extra[prev] + step < extra[mask]) extra[mask] = extra[prev] + step;
        }
    }
    /* A set's own bound, with its pieces to reach, is asked in the order of the cap's values, while one
       can beat the floor. */
    int order[1 << CHAIN_PIECES], open = 0;
    for (int mask = 0; mask < masks; mask++) {      /* least extra first, then by mask (an insertion sort) */
        if (extra[mask] == NO_ARC) continue;
        int j = open++;
        while (j > 0 && extra[order[j - 1]] > extra[mask]) { order[j] = order[j - 1]; j--; }
        order[j] = mask;
    }
    /* The sets the state it was made from found dead, where it followed the same pieces: every route from
       here is one from there, so none of them beats the floor (which only rises) with such a set. */
    unsigned inherited = 0;
    if (side < 0 && s->hint.count == count) {
        int same = 1, index[CHAIN_PIECES];
        for (int i = 0; i < count && same; i++) {
            index[i] = -1;
            for (int j = 0; j < count; j++)
                if (s->hint.pieces[j] == pieces[i]) index[i] = j;
            same = index[i] >= 0;
        }
        for (int mask = 0; same && mask < masks; mask++) {
            int theirs = 0;
            for (int i = 0; i < count; i++)
                if (mask >> i & 1) theirs |= 1 << index[i];
            if (s->hint.dead >> theirs & 1) inherited |= 1u << mask;
        }
    }
    int64_t best = NO_WIN, value_of[1 << CHAIN_PIECES];
    for (int mask = 0; mask < masks; mask++) value_of[mask] = extra[mask] == NO_ARC ? NO_WIN : cap - extra[mask];
    for (int k = 0; k < open; k++) {
        int mask = order[k];
        int64_t value = cap - extra[mask];
        if (value <= floor) { if (value > best) best = value; break; }
        if (inherited >> mask & 1) {
            if (floor > best) best = floor;
            continue;
        }
        set_t taken = {{0, 0}};
        for (int i = 0; i < count; i++)
            if (mask >> i & 1) taken = set_with(taken, c->area_node[pieces[i]]);
        int64_t own_value = steiner_ascent(g, w, s, price[mask] + B, taken, floor + extra[mask], side);
        if (own_value < cap) value = own_value == NO_WIN ? NO_WIN : own_value - extra[mask];
        value_of[mask] = value;
        if (value > best) best = value;
        if (side >= 0 && best > floor) break;     /* (an entry bound only asks whether it beats the floor) */
    }
    if (own && best > floor) {
        own->count = (int8_t)count;
        own->dead = 0;
        for (int i = 0; i < count; i++) own->pieces[i] = (int8_t)pieces[i];
        for (int mask = 0; mask < masks; mask++)
            if (extra[mask] == NO_ARC || inherited >> mask & 1 || value_of[mask] <= floor) own->dead |= 1u << mask;
    }
    return best;
}

/* Entry bound. The bounds above bound the final hp, and a route may count an elixir there that it takes
   only after the fight that needs the life: on suite level b060-01 the best route from 103 hp ends with 28,
   but it must fight an enemy of 56 damage to reach the last two elixirs (30 hp) and the goal, and no route
   wins from 101 hp, which the bounds of the final hp, at 26 and more, cannot show. Take a goal side T: a set
   of Steiner nodes holding every goal node (build_sides). A route from a state that has not entered T (no
   node of T reached or consumed) and wins enters it at some step, consuming a blocker next to T; up to and
   including that step it takes no elixir of T, and the fight of that step must leave it at least 1 hp.
   Everything the Steiner and chain bounds say of a route to a goal holds of that part of the route with T
   as the goal (its consumed blockers with the node each was entered from form an arborescence from the
   state's reach that holds a node of T, every supernode whose elixirs it takes, and every piece of
   equipment it takes), with T's elixirs left out of the prizes. So its life right after that fight, and
   after the elixirs of the supernodes it opens outside T, is at most that bound (chain_bound_side with
   `side`: the chain bound of the part before T, with no cap by the state's bound of the final hp, which
   may lie below the life at the entry). When it is below 1 for some side, no route from the state wins,
   and the state is dropped: a dead state, dropped in any search (best route, first win, a route through
   a blocker), loses no route; and a state dominated by a dead one is dead too.

   The goal sides: by the least damage from each node to a goal node (arcs into a costly node at its least
   damage, out of it to its supernodes for nothing), for each distance at which a supernode with elixirs
   lies, the goal nodes and the supernodes within that distance; nearest the goal first. */
static int side_entered(const Graph *g, const State *s, int side) {
    const SteinerGraph *c = g->steiner;
    set_t nodes = c->side_nodes[side];
    for (int m = 0; m < c->supers; m++)
        if (set_has(nodes, m) && !set_empty(set_and(c->super_areas[m], s->areas))) return 1;
    for (int m = c->supers; m < c->count; m++)
        if (set_has(s->consumed, c->node_blocker[m])
                && (set_has(nodes, m) || !set_empty(set_and(nodes, c->next_supers[m])))) return 1;
    return 0;
}

/* Whether a route from the state may win by the entry bound of the first `sides` goal sides it has not
   entered (nearest the goal first): 0 when one of them shows none can. Sets *error on a failed cost
   callback. */
static int entry_possible(Graph *g, Scratch *w, const State *s, int sides, int *error) {
    const SteinerGraph *c = g->steiner;
    for (int k = 0; k < c->sides_count && sides > 0; k++) {
        if (side_entered(g, s, k)) continue;
        sides--;
        if (chain_bound_side(g, w, s, NO_ARC, 0, NULL, error, k) < 1 || *error) return 0;
    }
    return 1;
}

/* The first bound (header comment, "Bound"): the smaller of the dominator-tree relaxation (hp + the gain of
   the boundary, plus what a goal below it adds) and the elixirs left less the distance to a goal. */
static int64_t bound_of(const Graph *g, const State *s) {
    int64_t left = g->total_elixirs - s->elixirs;
    if (s->goal >= 0) return s->hp + (s->gain < left ? s->gain : left);
    int found = 0;
    int64_t goal_extra = 0;
    nodes_t ancestors = nodes_and(s->boundary, g->goal_ancestors);
    FOR_EACH_NODE(n, ancestors, {
        if (!found || g->goal_extra[n] > goal_extra) { goal_extra = g->goal_extra[n]; found = 1; }
    })
    if (!found) return NO_WIN;
    int64_t nearest = -1;
    FOR_EACH(b, s->frontier, {
        int64_t d = g->blockers[b].goal_distance;
        if (d >= 0 && (nearest < 0 || d < nearest)) nearest = d;
    })
    if (nearest < 0) return NO_WIN;
    int64_t tree = s->gain + goal_extra, chain = left - nearest;
    return s->hp + (tree < chain ? tree : chain);
}

/* For one frontier blocker: whether it can be consumed now, and at what cost (`costs` at the
   state's stats). With `survival`, a fight must leave the player alive; the least-need search tracks
   survival itself. */
static inline int move_cost(const Graph *g, const State *s, int b, const int64_t *costs, int survival,
                            int64_t *cost) {
    const Blocker *blocker = &g->blockers[b];
    /* Dominance application 4: everything around it is reached already (and it pays no money a shop takes);
       never for the blocker a route must consume. */
    if (b != g->must && set_empty(set_andnot(blocker->areas, s->areas))
            && set_empty(set_andnot(blocker->allowed_neighbours, s->consumed))
            && !set_has(g->goal_blockers, b) && !blocker->money)
        return 0;
    if (blocker->is_door) {
        *cost = 0;
        if (blocker->purchase) return affordable(g, s->consumed);
        return (s->keys & blocker->key_bits) != 0;     /* a key of its colour */
    }
    *cost = costs[b];
    return *cost >= 0 && (!survival || *cost < s->hp);
}

/* The doors of each colour a state consumed (by colour field), into `opened`. */
static inline void doors_opened(const Graph *g, set_t consumed, int *opened) {
    for (int c = 0; c < g->fields; c++) opened[c] = set_count(set_and(consumed, g->field_doors[c]));
}

/* The part of the dominance rule (header comment) that is not about life: state `a` has reached these areas
   and consumed these linking blockers, and for each key colour opened no more doors of it than `opened`
   says, or holds keys of it for every door of it left. */
static inline int reaches_beyond(const Graph *g, const State *a, set_t areas, set_t linked, const int *opened) {
    if (!set_within(areas, a->areas) || !set_within(linked, a->consumed)) return 0;
    /* (with a shop: the same purchases; the purchases are linking, so `linked` holds the other's) */
    if (!set_within(set_and(a->consumed, g->purchases), linked)) return 0;
    for (int c = 0; c < g->fields; c++)
        if (set_count(set_and(a->consumed, g->field_doors[c])) > opened[c] && !keys_cover(g, a, c)) return 0;
    return 1;
}

/* Dominance application 3: a known state one enemy step further on dominates the state. A step can close
   to the state's own key (an enemy that touches no other blocker and whose areas are all reached); the state
   stored under that key is the state itself, which must not count as dominating itself. No other cycle is
   possible: along a chain of "dominated by the state one step on", the areas and linking blockers only
   grow, and with them equal the keys only fall. */
static int dominated(Search *S, const State *s, int32_t own_key) {
    const Graph *g = &S->g;
    set_t linked = set_and(s->consumed, g->linking);
    int64_t lost = s->elixirs - s->hp;
    int opened[MAX_FIELDS];
    doors_opened(g, s->consumed, opened);
    /* (not over a boss: the state after it ends the route, and dominates nothing) */
    set_t enemies = set_andnot(set_andnot(s->frontier, g->door_mask), g->ending);
    /* The lookups miss the cache more often than not: asked for all at once, the misses overlap. */
    int32_t found[64 * SET_WORDS];
    int count = 0;
    FOR_EACH(f, enemies, {
        StepEntry *step = steps_slot(&S->steps, set_with(s->consumed, f));
        if (step->key_id >= 0 && step->key_id != own_key) {
            found[count++] = step->key_id;
            __builtin_prefetch(&S->keys.entries[step->key_id].best);
        }
    })
    for (int i = 0; i < count; i++) {
        const Best *further = &S->keys.entries[found[i]].best;
        if (further->record >= 0 && further->elixirs - further->hp <= lost
                && reaches_beyond(g, &S->records[further->record], s->areas, linked, opened))
            return 1;
    }
    return 0;
}

/* Ask for the step table's slots of every raw step from this state before reading any. */
static inline void prefetch_steps(const StepTable *t, const State *s) {
    uint64_t mask = (uint64_t)t->capacity - 1;
    FOR_EACH(f, s->frontier, { __builtin_prefetch(&t->slots[set_hash(set_with(s->consumed, f)) & mask]); })
}

static int32_t add_record(Search *S, const State *s) {
    if (S->records_count >= INT32_MAX - 1) { no_memory(); return -1; }
    if (grow((void **)&S->records, &S->records_capacity, S->records_count + 1, sizeof(State)) < 0) return -1;
    S->records[S->records_count] = *s;
    return (int32_t)S->records_count++;
}

/* ------------------------------------------------------------------------------------------ unpacking */

/* A mask packed by Python's int.to_bytes(size, "little"): the words of a set_t or a nodes_t. */
static int read_mask(PyObject *bytes, void *out, size_t size) {
    char *data;
    Py_ssize_t length;
    if (PyBytes_AsStringAndSize(bytes, &data, &length) < 0) return -1;
    if (length != (Py_ssize_t)size) { PyErr_Format(PyExc_ValueError, "a mask must be %zu bytes", size); return -1; }
    memcpy(out, data, size);
    return 0;
}

static int read_set(PyObject *bytes, set_t *out) { return read_mask(bytes, out, sizeof(set_t)); }
static int read_nodes(PyObject *bytes, nodes_t *out) { return read_mask(bytes, out, sizeof(nodes_t)); }

/* A number of the graph or a state. Python keeps every one within MAX_NUMBER in size (passages_search_graph:
   costs above MAX_COST become impossible fights, and levels whose numbers could grow beyond go to the
   reference engine), so that no sum the search makes can leave 64 bits; anything else is refused here. */
#define MAX_NUMBER ((int64_t)1 << 56)
static int read_int(PyObject *tuple, Py_ssize_t i, int64_t *out) {
    *out = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, i));
    if (*out == -1 && PyErr_Occurred()) return -1;
    if (*out > MAX_NUMBER || *out < -MAX_NUMBER) {
        PyErr_SetString(PyExc_OverflowError, "a number beyond the compiled search's range");
        return -1;
    }
    return 0;
}

/* A count (keys) or an index (a goal), kept in an int: at most 2^30 (keys are at most 10^9 and a key per
   cell of the map). */
static int read_small(PyObject *tuple, Py_ssize_t i, int *out) {
    int64_t value;
    if (read_int(tuple, i, &value) < 0) return -1;
    if (value > ((int64_t)1 << 30) || value < -((int64_t)1 << 30)) {
        PyErr_SetString(PyExc_OverflowError, "a count beyond the compiled search's range");
        return -1;
    }
    *out = (int)value;
    return 0;
}

static int tuple_of(PyObject *o, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != size) {
        PyErr_Format(PyExc_ValueError, "%s must be a tuple of %zd", what, size);
        return -1;
    }
    return 0;
}

/* The key colours as Python packs them: a tuple of (shift, bits) per colour field, the fields apart and every
   one within MAX_NUMBER. */
static int read_fields(PyObject *fields, Graph *g) {
    if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) < 1 || PyTuple_GET_SIZE(fields) > MAX_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "the key fields must be a tuple of 1 to 5 (shift, bits)");
        return -1;
    }
    g->fields = (int)PyTuple_GET_SIZE(fields);
    int64_t used = 0;
    for (int c = 0; c < g->fields; c++) {
        PyObject *field = PyTuple_GET_ITEM(fields, c);
        int shift;
        if (tuple_of(field, 2, "a key field") < 0 || read_small(field, 0, &shift) < 0
                || read_int(field, 1, &g->field_bits[c]) < 0)
            return -1;
        if (shift < 0 || shift > 55 || g->field_bits[c] < 1 || (g->field_bits[c] & (g->field_bits[c] + 1))
                || (g->field_bits[c] << shift) > MAX_NUMBER || (used & (g->field_bits[c] << shift))) {
            PyErr_SetString(PyExc_ValueError, "the key fields overlap or leave the compiled search's range");
            return -1;
        }
        g->field_shift[c] = shift;
        used |= g->field_bits[c] << shift;
    }
    return 0;
}

/* The graph comes as a tuple: (areas, blockers, positive, goal_extra, door_mask, goal_blockers, linking,
   allowed, allowed_doors, goal_ancestors, total_elixirs, cost_callback, key fields, ending), with
   areas = tuple of (atk, defence, keys, hp, goal, blockers: set bytes, children: node bytes),
   blockers = tuple of (is_door, goal, least, goal_distance, areas, blockers, allowed_neighbours, children,
   key field (a door's colour; -1 for the rest), ends), positive and goal_extra = tuples of ints per node,
   key fields as read_fields reads them, ending the mask of the bosses whose defeat wins, and shop = (start
   money, first price, rise per purchase), with blockers' money and purchase flag after `ends`. Stats and keys
   come packed (passages_search_graph.py): the defence may hold the magic defence too, the keys one field per
   colour. */
static int read_graph(PyObject *spec, Graph *g) {
    if (tuple_of(spec, 15, "the graph") < 0 || read_fields(PyTuple_GET_ITEM(spec, 12), g) < 0
            || read_set(PyTuple_GET_ITEM(spec, 13), &g->ending) < 0)
        return -1;
    PyObject *shop = PyTuple_GET_ITEM(spec, 14);
    if (tuple_of(shop, 3, "the shop") < 0 || read_int(shop, 0, &g->start_money) < 0
            || read_int(shop, 1, &g->shop_start) < 0 || read_int(shop, 2, &g->shop_delta) < 0)
        return -1;
    if (g->start_money < 0 || g->shop_start < 0 || g->shop_delta < 0) {
        PyErr_SetString(PyExc_ValueError, "the shop's money and prices must not be negative");
        return -1;
    }
    PyObject *areas = PyTuple_GET_ITEM(spec, 0), *blockers = PyTuple_GET_ITEM(spec, 1);
    PyObject *positive = PyTuple_GET_ITEM(spec, 2), *goal_extra = PyTuple_GET_ITEM(spec, 3);
    if (!PyTuple_Check(areas) || !PyTuple_Check(blockers) || !PyTuple_Check(positive) || !PyTuple_Check(goal_extra)) {
        PyErr_SetString(PyExc_ValueError, "areas, blockers and node values must be tuples");
        return -1;
    }
    g->areas_count = (int)PyTuple_GET_SIZE(areas);
    g->blockers_count = (int)PyTuple_GET_SIZE(blockers);
    g->nodes_count = (int)PyTuple_GET_SIZE(positive);
    if (g->areas_count > 64 * SET_WORDS || g->blockers_count > 64 * SET_WORDS || g->nodes_count > 64 * NODE_WORDS
            || PyTuple_GET_SIZE(goal_extra) != g->nodes_count) {
        PyErr_SetString(PyExc_ValueError, "level too large for the compiled search");
        return -1;
    }
    g->areas = calloc((size_t)g->areas_count + 1, sizeof(Area));
    g->blockers = calloc((size_t)g->blockers_count + 1, sizeof(Blocker));
    g->positive = calloc((size_t)g->nodes_count + 1, sizeof(int64_t));
    g->goal_extra = calloc((size_t)g->nodes_count + 1, sizeof(int64_t));
    g->tables_capacity = 64;
    g->tables_used = 0;
    g->tables = calloc((size_t)g->tables_capacity, sizeof(CostTable *));
    if (!g->areas || !g->blockers || !g->positive || !g->goal_extra || !g->tables) { no_memory(); return -1; }
    for (int a = 0; a < g->areas_count; a++) {
        PyObject *item = PyTuple_GET_ITEM(areas, a);
        Area *area = &g->areas[a];
        if (tuple_of(item, 7, "an area") < 0 || read_int(item, 0, &area->atk) < 0
                || read_int(item, 1, &area->defense) < 0 || read_int(item, 2, &area->keys) < 0
                || read_int(item, 3, &area->hp) < 0 || read_small(item, 4, &area->goal) < 0
                || read_set(PyTuple_GET_ITEM(item, 5), &area->blockers) < 0
                || read_nodes(PyTuple_GET_ITEM(item, 6), &area->children) < 0)
            return -1;
    }
    for (int b = 0; b < g->blockers_count; b++) {
        PyObject *item = PyTuple_GET_ITEM(blockers, b);
        Blocker *blocker = &g->blockers[b];
        int field;
        if (tuple_of(item, 12, "a blocker") < 0 || read_small(item, 0, &blocker->is_door) < 0
                || read_small(item, 1, &blocker->goal) < 0
                || read_int(item, 2, &blocker->least) < 0 || read_int(item, 3, &blocker->goal_distance) < 0
                || read_set(PyTuple_GET_ITEM(item, 4), &blocker->areas) < 0
                || read_set(PyTuple_GET_ITEM(item, 5), &blocker->blockers) < 0
                || read_set(PyTuple_GET_ITEM(item, 6), &blocker->allowed_neighbours) < 0
                || read_nodes(PyTuple_GET_ITEM(item, 7), &blocker->children) < 0
                || read_small(item, 8, &field) < 0 || read_small(item, 9, &blocker->ends) < 0
                || read_int(item, 10, &blocker->money) < 0 || read_small(item, 11, &blocker->purchase) < 0)
            return -1;
        if (blocker->purchase && !blocker->is_door) {
            PyErr_SetString(PyExc_ValueError, "a purchase is a door (of money)");
            return -1;
        }
        if (blocker->is_door && !blocker->purchase ? field < 0 || field >= g->fields : field != -1) {
            PyErr_SetString(PyExc_ValueError, "a door needs the key field of its colour, and only a door has one");
            return -1;
        }
        if (blocker->money < 0 || (blocker->money && blocker->is_door)) {
            PyErr_SetString(PyExc_ValueError, "only an enemy pays money, and never less than none");
            return -1;
        }
        if (blocker->money) g->paying = set_with(g->paying, b);
        if (blocker->purchase) g->purchases = set_with(g->purchases, b);
        if (blocker->is_door && !blocker->purchase) {
            blocker->key_unit = (int64_t)1 << g->field_shift[field];
            blocker->key_bits = g->field_bits[field] << g->field_shift[field];
            g->field_doors[field] = set_with(g->field_doors[field], b);
        }
    }
    for (int n = 0; n < g->nodes_count; n++) {
        if (read_int(positive, n, &g->positive[n]) < 0 || read_int(goal_extra, n, &g->goal_extra[n]) < 0) return -1;
    }
    if (read_set(PyTuple_GET_ITEM(spec, 4), &g->door_mask) < 0
            || read_set(PyTuple_GET_ITEM(spec, 5), &g->goal_blockers) < 0
            || read_set(PyTuple_GET_ITEM(spec, 6), &g->linking) < 0
            || read_set(PyTuple_GET_ITEM(spec, 7), &g->allowed) < 0
            || read_set(PyTuple_GET_ITEM(spec, 8), &g->allowed_doors) < 0
            || read_nodes(PyTuple_GET_ITEM(spec, 9), &g->goal_ancestors) < 0
            || read_int(spec, 10, &g->total_elixirs) < 0)
        return -1;
    for (int c = 0; c < g->fields; c++) g->field_allowed[c] = set_and(g->field_doors[c], g->allowed);
    g->must = -1;
    g->cost_callback = PyTuple_GET_ITEM(spec, 11);
    if (!PyCallable_Check(g->cost_callback)) {
        PyErr_SetString(PyExc_TypeError, "the cost callback must be callable");
        return -1;
    }
    return build_steiner_graph(g);
}

/* A state as Python has it: (consumed, areas, atk, defence, keys, hp, elixirs, frontier, goal), as reached
   (a level's start, a state of the counting walk); then settled on the graph (settle_state), with its
   closure when `close` (its free steps appended to `taken` when not NULL). Returns -1 on error. */
static int read_state(Graph *g, PyObject *t, State *s, int close, Trail *taken) {
    if (tuple_of(t, 9, "a state") < 0) return -1;
    memset(s, 0, sizeof(State));
    if (read_set(PyTuple_GET_ITEM(t, 0), &s->consumed) < 0 || read_set(PyTuple_GET_ITEM(t, 1), &s->areas) < 0
            || read_int(t, 2, &s->atk) < 0 || read_int(t, 3, &s->defense) < 0 || read_int(t, 4, &s->keys) < 0
            || read_int(t, 5, &s->hp) < 0 || read_int(t, 6, &s->elixirs) < 0
            || read_set(PyTuple_GET_ITEM(t, 7), &s->frontier) < 0 || read_small(t, 8, &s->goal) < 0)
        return -1;
    s->parent = -1;
    s->step = -1;
    s->hint.count = -1;
    return settle_state(g, s, close, taken);
}

/* A search's graph, read from its spec, and its empty tables; free_search gives them back. */
static int init_search(Search *S, PyObject *spec) {
    if (read_graph(spec, &S->g) < 0 || keys_init(&S->keys) < 0 || steps_init(&S->steps) < 0
            || queue_init(&S->queue) < 0)
        return -1;
    return 0;
}

static void free_search(Search *S) {
    if (S->g.tables) {
        for (int64_t i = 0; i < S->g.tables_capacity; i++)
            if (S->g.tables[i]) {
                free(S->g.tables[i]->costs);
                free(S->g.tables[i]->prices);
                free(S->g.tables[i]);
            }
    }
    if (S->g.steiner) {
        SteinerGraph *c = S->g.steiner;
        for (int64_t i = 0; i < c->dists_capacity; i++)
            if (c->dists[i].first != DIST_EMPTY) free(c->dists[i].dist);
        free(c->dists);
    }
    free(S->g.tables); free(S->g.steiner); free(S->g.scratch);
    free(S->g.areas); free(S->g.blockers); free(S->g.positive); free(S->g.goal_extra);
    free(S->records); free(S->keys.slots); free(S->keys.entries);
    free(S->steps.slots); queue_free(&S->queue); free(S->undo);
}

/* ------------------------------------------------------------------------------------------ the search */

/* Whether the deadline has passed; -1 with the exception set when asking raised one. A signal that came
   meanwhile (Ctrl-C) is handled first: in the main thread its KeyboardInterrupt ends the search at once. */
static int expired(PyObject *deadline) {
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0) {
        PyGILState_Release(gil);
        return -1;
    }
    PyObject *answer = PyObject_CallMethod(deadline, "expired", NULL);
    int out = answer ? PyObject_IsTrue(answer) : -1;
    Py_XDECREF(answer);
    PyGILState_Release(gil);
    return out;
}

typedef struct {
    int first_win, dive, use_dominance, priced, steiner;
    int64_t at_least;
    int64_t max_expanded;   /* stop (not complete) after this many expansions; 0: no such cap */
    int64_t chain_from;     /* the chain bound from this many expansions on; -1: never */
    int threads;            /* 2: bound states on a second core too, once the deadline spares one (Helper) */
    int entry;              /* the entry bound on this many goal sides of every state that comes up (0: none) */
} Options;

/* ------------------------------------------------------------------------------------------ the helper */

/* A second thread for the chain bound, the search's costliest part: a state that needs it goes into one
   of HELPER_JOBS slots, out of the queue, and the helper bounds the slots' states in turn while the search
   thread goes on with the next states (bounding them itself while the slots are full). Each thread has
   its own working space; the tables both may add to (costs, prices, distances) are shared under a lock.
   The helper waits for work spinning, as a handover must take well under the few dozen microseconds a
   bound takes, so it runs only when the core is free (spare_core). */
#define HELPER_JOBS 4

enum { JOB_EMPTY, JOB_POSTED, JOB_DONE };

typedef struct {
    atomic_int phase;       /* JOB_EMPTY, JOB_POSTED (a state to bound), JOB_DONE */
    State state;            /* the state posted, and its hint after */
    int32_t record;         /* its record */
    int64_t queued, floor;  /* the bound it was queued with; the floor of the search when posted */
    int64_t result;
    int error;
} Job;

typedef struct Helper {
    Graph *g;
    pthread_t thread;
    SpinLock lock;
    atomic_int quit;
    Job jobs[HELPER_JOBS];
    int out;                /* jobs not empty (the search thread's count) */
    Scratch scratch;
} Helper;

static void *helper_main(void *arg) {
    Helper *h = arg;
    unsigned idle = 0;
    for (int at = 0; !atomic_load_explicit(&h->quit, memory_order_acquire); at = (at + 1) % HELPER_JOBS) {
        Job *job = &h->jobs[at];
        if (atomic_load_explicit(&job->phase, memory_order_acquire) != JOB_POSTED) {
            if (++idle % 4096 == 0) sched_yield();
            continue;
        }
        job->error = 0;
        job->result = chain_bound(h->g, &h->scratch, &job->state, job->state.cheap, job->floor, &job->state.hint,
                                  &job->error);
        atomic_store_explicit(&job->phase, JOB_DONE, memory_order_release);
    }
    return NULL;
}

/* Starts the helper; 0 when it could not be (the search goes on alone). */
static int helper_start(Search *S) {
    Helper *h = calloc(1, sizeof(Helper));
    if (!h) return 0;
    h->g = &S->g;
    atomic_init(&h->quit, 0);
    for (int i = 0; i < HELPER_JOBS; i++) atomic_init(&h->jobs[i].phase, JOB_EMPTY);
    atomic_flag_clear(&h->lock.held);
    S->g.tables_lock = &h->lock;
    if (pthread_create(&h->thread, NULL, helper_main, h) != 0) {
        S->g.tables_lock = NULL;
        free(h);
        return 0;
    }
    S->helper = h;
    return 1;
}

/* Hands a state to the helper when a slot is free; 0 when none is. */
static int helper_post(Helper *h, const State *state, int32_t record, int64_t queued, int64_t floor) {
    for (int i = 0; i < HELPER_JOBS; i++) {
        Job *job = &h->jobs[i];
        if (atomic_load_explicit(&job->phase, memory_order_relaxed) != JOB_EMPTY) continue;
        job->state = *state;
        job->record = record;
        job->queued = queued;
        job->floor = floor;
        atomic_store_explicit(&job->phase, JOB_POSTED, memory_order_release);
        h->out++;
        return 1;
    }
    return 0;
}

static void helper_stop(Search *S) {
    Helper *h = S->helper;
    if (!h) return;
    atomic_store_explicit(&h->quit, 1, memory_order_release);     /* (it finishes the bound it is on) */
    pthread_join(h->thread, NULL);
    S->g.tables_lock = NULL;
    free(h);
    S->helper = NULL;
}

/* Whether the deadline spares a second core now: its spare_core(), or always when it has none. */
static int spare_core(PyObject *deadline) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int out = 1;
    if (PyObject_HasAttrString(deadline, "spare_core")) {
        PyObject *answer = PyObject_CallMethod(deadline, "spare_core", NULL);
        out = answer ? PyObject_IsTrue(answer) : -1;
        Py_XDECREF(answer);
    }
    PyGILState_Release(gil);
    return out;
}

typedef struct {
    int have_best, complete;
    int64_t best_hp, expanded;
    int32_t best_record;
} Outcome;

/* The store of a state under a key; in a decision search, the state it replaces goes into the undo log. */
static int set_best(Search *S, int32_t key_id, Best best) {
    if (S->undo_active) {
        if (grow((void **)&S->undo, &S->undo_capacity, S->undo_count + 1, sizeof(Undo)) < 0) return -1;
        S->undo[S->undo_count++] = (Undo){key_id, S->keys.entries[key_id].best};
    }
    S->keys.entries[key_id].best = best;
    return 0;
}

/* The states the helper has bounded back into the queue under their chain bounds, marked refined, or
   dropped where that cannot beat the best; with `wait`, after waiting for one at least. */
static int take_back(Search *S, Options o, const Outcome *out, int wait) {
    Helper *h = S->helper;
    for (;;) {
        int taken = 0;
        for (int i = 0; i < HELPER_JOBS; i++) {
            Job *job = &h->jobs[i];
            if (atomic_load_explicit(&job->phase, memory_order_acquire) != JOB_DONE) continue;
            atomic_store_explicit(&job->phase, JOB_EMPTY, memory_order_relaxed);
            h->out--;
            taken++;
            if (job->error) return -1;
            State *state = &S->records[job->record];
            state->hint = job->state.hint;
            int64_t bound = job->result < job->queued ? job->result : job->queued;
            if (bound < o.at_least || (out->have_best && bound <= out->best_hp)) continue;
            state->refined = 1;
            if (queue_push(&S->queue, -bound, -(int64_t)set_count(state->consumed), job->record) < 0) return -1;
        }
        if (taken || !wait) return 0;
    }
}

/* The best-first search from `root_in` (settled and closed) on the graph and tables of S: states already
   stored under keys count as found (a decision search's failures). Runs without the GIL. Returns -1 on
   error, with the exception set. */
static int run_search_roots(Search *S, const State *roots, int count, PyObject *deadline, Options o, Outcome *out);

static int run_search(Search *S, const State *root_in, PyObject *deadline, Options o, Outcome *out) {
    return run_search_roots(S, root_in, 1, deadline, o, out);
}

/* The same search from several roots at once (first_win_any): a route from any of them is a route of the
   search, and the dominance between states holds whichever root each came from (it compares positions,
   never the way to them). Each root's record has parent -1; roots already stored under their key with at
   least their life are left out. */
static int run_queue(Search *S, PyObject *deadline, Options o, Outcome *out);

/* Queue a root of the search (settled and closed), its record made from `parent` (-1, or below: what the
   caller numbers its roots by); left out when a state stored under its key has at least its life (known to
   fail from there, or queued already). Returns -1 on error. */
static int add_root(Search *S, const State *root_in, int32_t parent, Options o) {
    const Graph *g = &S->g;
    State root = *root_in;
    Key k = key_of(g, &root);
    int32_t root_key = keys_find(&S->keys, &k, 1);
    if (root_key < 0) return -1;
    const Best *stored = &S->keys.entries[root_key].best;
    if (stored->record >= 0 && stored->hp >= root.hp) return 0;
    root.key_id = root_key;
    root.parent = parent;
    root.cheap = bound_of(g, &root);
    int32_t root_record = add_record(S, &root);
    if (root_record < 0 || set_best(S, root_key, (Best){root.hp, root.elixirs, root_record}) < 0) return -1;
    int64_t b0 = root.cheap;
    int64_t depth = set_count(root.consumed);
    return queue_push(&S->queue, o.dive ? -depth : -b0, o.dive ? -b0 : -depth, root_record);
}

static int run_search_roots(Search *S, const State *roots, int count, PyObject *deadline, Options o, Outcome *out) {
    for (int r = 0; r < count; r++)
        if (add_root(S, &roots[r], -1, o) < 0) return -1;
    return run_queue(S, deadline, o, out);
}

/* The search itself, from the roots queued (add_root). */
static int run_queue(Search *S, PyObject *deadline, Options o, Outcome *out) {
    Graph *g = &S->g;
    *out = (Outcome){0, 1, 0, 0, -1};
    /* A helper only where the chain bound is asked from the start, without the priced bound, best bound
       first. */
    const int wants_helper = o.threads > 1 && !o.priced && o.chain_from == 0 && g->steiner && !o.dive;
    if (wants_helper) {
        int spare = spare_core(deadline);
        if (spare < 0) return -1;
        if (spare) helper_start(S);
    }
    /* With a helper, a state that needs the chain bound goes to it when it is free, out of the queue, and
       comes back under its bound, marked refined, while this thread goes on with the next ones; the search
       ends only with nothing out. The order of expansion is then by bound still but for the states out,
       and every bound is admissible still. */
    int64_t work = 0, next_look = CLOCK_EVERY;
    for (;;) {
        if (S->helper && S->helper->out && take_back(S, o, out, 0) < 0) goto failed;
        if (S->queue.size == 0) {
            if (!S->helper || !S->helper->out) break;
            if (take_back(S, o, out, 1) < 0) goto failed;
            continue;
        }
        int64_t first, second;
        int32_t popped = queue_pop(&S->queue, &first, &second);
        int64_t state_bound = o.dive ? -second : -first;
        if (state_bound < o.at_least || (out->have_best && state_bound <= out->best_hp)) {
            /* Best bound first, every state left is as hopeless; deepest first, only this one. */
            if (o.dive) continue;
            if (!S->helper || !S->helper->out) break;
            if (queue_push(&S->queue, first, second, popped) < 0 || take_back(S, o, out, 1) < 0) goto failed;
            continue;
        }
        if (work >= next_look) {
            next_look = work + CLOCK_EVERY;
            int over = expired(deadline);
            if (over < 0) goto failed;
            if (over) { out->complete = 0; break; }
            if (wants_helper && !S->helper) {
                int spare = spare_core(deadline);
                if (spare < 0) goto failed;
                if (spare) helper_start(S);
            }
        }
        State state = S->records[popped];
        int32_t state_key = state.key_id;
        if (S->keys.entries[state_key].best.record != popped) continue;     /* a better way to this key came later */
        prefetch_steps(&S->steps, &state);
        if (o.use_dominance && dominated(S, &state, state_key)) continue;
        int chain = o.chain_from >= 0 && out->expanded >= o.chain_from;
        if ((o.priced || o.steiner || chain || o.entry) && !state.refined) {
            /* The lazy bounds, once per state that comes up: the Steiner bound, then the priced bound
               unless the Steiner bound already settles it. */
            int error = 0;
            int64_t floor = out->have_best ? out->best_hp : o.at_least - 1;
            int64_t tighter = state_bound;
            if (o.entry && g->steiner) {
                work += BOUND_WORK;
                if (!entry_possible(g, g->scratch, &state, o.entry, &error)) {
                    if (error) goto failed;
                    continue;
                }
            }
            if (o.steiner && !chain && g->steiner) {
                /* (the chain bound asks a Steiner bound of its own, at lower prices, first) */
                work += BOUND_WORK;
                int64_t steiner = steiner_bound_priced(g, g->scratch, &state, NULL, (set_t){{0, 0}}, floor);
                if (steiner < tighter) tighter = steiner;
            }
            if (o.priced && tighter > floor) {
                int64_t priced = priced_bound(g, &state, tighter, floor, &error);
                if (error) goto failed;
                if (priced < tighter) tighter = priced;
            }
            if (chain && g->steiner && tighter > floor) {
                if (S->helper && !o.priced && helper_post(S->helper, &state, popped, state_bound, floor)) continue;
                /* (its cap: the state's own bound of least damages, not the one it is queued with, which may
                   be a chain bound with its extra already taken off) */
                work += BOUND_WORK;
                int64_t chained = chain_bound(g, g->scratch, &state, state.cheap, floor, &state.hint, &error);
                if (error) goto failed;
                S->records[popped].hint = state.hint;
                if (chained < tighter) tighter = chained;
            }
            if (tighter < state_bound) {
                /* Queued again under the tighter bound, or dropped if that cannot beat the best. */
                if (tighter >= o.at_least && (!out->have_best || tighter > out->best_hp)) {
                    S->records[popped].refined = 1;
                    int64_t depth = set_count(state.consumed);
                    if (queue_push(&S->queue, o.dive ? -depth : -tighter, o.dive ? -tighter : -depth, popped) < 0)
                        goto failed;
                }
                continue;
            }
        }
        if (state.goal >= 0 && state.hp >= o.at_least && (!out->have_best || state.hp > out->best_hp)
                && (g->must < 0 || set_has(state.consumed, g->must))) {
            out->have_best = 1; out->best_hp = state.hp; out->best_record = popped;
            if (o.first_win) break;
            if (state_bound <= out->best_hp) {
                if (!S->helper || !S->helper->out) break;
                if (take_back(S, o, out, 1) < 0) goto failed;
                continue;
            }
        }
        out->expanded++;
        if (o.max_expanded && out->expanded >= o.max_expanded) { out->complete = 0; break; }
        work++;
        int64_t base_hp = state.hp - state.elixirs;
        int64_t floor = out->have_best ? out->best_hp : o.at_least - 1;
        CostTable *table = costs_at(g, state.atk, state.defense);
        if (!table) goto failed;
        const int64_t *costs = table->costs;
        int stop = 0;
        /* A shop: while a purchase is affordable, the next step is a purchase ("Towers": buying as soon as
           one can is never worse). */
        set_t moves = state.frontier, buying = set_and(state.frontier, g->purchases);
        if (!set_empty(buying) && affordable(g, state.consumed)) moves = buying;
        FOR_EACH(b, moves, {
            if (stop) break;
            const Blocker *blocker = &g->blockers[b];
            int64_t cost;
            if (!move_cost(g, &state, b, costs, 1, &cost)) continue;
            int64_t least = blocker->least < 0 ? 0 : blocker->least;
            if (state.cheap - cost + least <= floor) continue;   /* the child's bound could not beat floor */
            if (blocker->ends) {
                /* The boss: a win with the life the fight leaves, and the end of the route (never queued,
                   never stored under a key, so it dominates nothing). */
                if (state.hp - cost < o.at_least || (out->have_best && state.hp - cost <= out->best_hp)) continue;
                if (g->must >= 0 && g->must != b && !set_has(state.consumed, g->must)) continue;
                State child;
                if (consume(g, &state, b, cost, &child, NULL) < 0) goto failed;
                child.parent = popped;
                child.step = (int16_t)b;
                child.key_id = -1;
                child.cheap = child.hp;
                child.refined = 1;
                int32_t child_record = add_record(S, &child);
                if (child_record < 0) goto failed;
                out->have_best = 1; out->best_hp = child.hp; out->best_record = child_record;
                floor = out->best_hp;
                if (o.first_win) { S->queue.size = 0; stop = 1; }
                continue;
            }
            set_t raw = set_with(state.consumed, b);
            StepEntry *known_step = steps_slot(&S->steps, raw);
            if (known_step->key_id >= 0) {
                const Best *known = &S->keys.entries[known_step->key_id].best;
                if (known->record >= 0 && known->hp >= base_hp - cost + known->elixirs) continue;
            }
            State child;
            if (consume(g, &state, b, cost, &child, NULL) < 0) goto failed;
            Key ck = key_of(g, &child);
            int32_t child_key = keys_find(&S->keys, &ck, 1);
            if (child_key < 0) goto failed;
            if (steps_store(&S->steps, known_step, raw, child_key) < 0) goto failed;
            const Best *known = &S->keys.entries[child_key].best;
            if (known->record >= 0 && known->hp >= child.hp) continue;
            /* Every continuation of the child is one of this state: this state's bound holds for it too. */
            int64_t child_cheap = bound_of(g, &child);
            int64_t child_bound = child_cheap < state_bound ? child_cheap : state_bound;
            if (child_bound <= floor) continue;
            child.parent = popped;
            child.step = (int16_t)b;
            child.key_id = child_key;
            child.cheap = child_cheap;
            child.refined = 0;
            int32_t child_record = add_record(S, &child);
            if (child_record < 0) goto failed;
            if (set_best(S, child_key, (Best){child.hp, child.elixirs, child_record}) < 0) goto failed;
            if (child.goal >= 0 && child.hp >= o.at_least && (!out->have_best || child.hp > out->best_hp)
                    && (g->must < 0 || set_has(child.consumed, g->must))) {
                out->have_best = 1; out->best_hp = child.hp; out->best_record = child_record;
                floor = out->best_hp;
                if (o.first_win) { S->queue.size = 0; stop = 1; continue; }
            }
            int64_t depth = set_count(child.consumed);
            if (queue_push(&S->queue, o.dive ? -depth : -child_bound, o.dive ? -child_bound : -depth, child_record) < 0)
                goto failed;
        })
    }
    return 0;
failed:
    return -1;
}

/* Every blocker consumed from the settled root to record `best`: each step of the way, then the free steps
   of its closure, appended to `trail` (which holds the root's own closure already). The way is walked again
   from the root with the steps the search took, so it meets the same states. Runs without the GIL. */
static int route_steps(Search *S, const State *root, int32_t best, Trail *trail) {
    Trail way = {NULL, 0, 0};
    for (int32_t at = best; S->records[at].parent >= 0; at = S->records[at].parent)
        if (trail_add(&way, S->records[at].step) < 0) { free(way.items); return -1; }
    State state = *root;
    int status = 0;
    for (int64_t i = way.count - 1; i >= 0 && status == 0; i--) {
        int b = way.items[i];
        CostTable *table = costs_at(&S->g, state.atk, state.defense);
        status = !table || trail_add(trail, b) < 0 ? -1 : consume(&S->g, &state, b, table->costs[b], &state, trail);
    }
    free(way.items);
    if (status == 0 && (state.hp != S->records[best].hp || state.goal != S->records[best].goal)) {
        PyGILState_STATE gil = PyGILState_Ensure();
        PyErr_SetString(PyExc_SystemError, "the search's way to its best state does not lead there again");
        PyGILState_Release(gil);
        return -1;
    }
    return status;
}

/* search(graph, root, deadline, first_win, dive, use_dominance, at_least, priced, steiner, chain_from, threads=1,
   must=-1) -> (best_hp, complete, expanded, steps, goal): from the state `root` as reached (read_state), its
   closure taken; steps = every blocker consumed from root to the best state found (closures included) and
   goal = the goal it reaches; best_hp, steps and goal None when no win was found. With `must`, only routes
   that consume that blocker count (Graph.must). */
static PyObject *search(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spec, *root_spec, *deadline;
    Options o;
    long long at_least;
    long long chain_from;
    o.threads = 1;
    o.max_expanded = 0;
    o.entry = 0;
    int must = -1;
    if (!PyArg_ParseTuple(args, "OOOpppLppL|iii", &spec, &root_spec, &deadline, &o.first_win, &o.dive,
                          &o.use_dominance, &at_least, &o.priced, &o.steiner, &chain_from, &o.threads, &must,
                          &o.entry))
        return NULL;
    o.at_least = at_least;
    o.chain_from = chain_from;
    Search S;
    memset(&S, 0, sizeof(S));
    Trail trail = {NULL, 0, 0};
    PyObject *result = NULL;
    State root;
    Outcome out;
    if (init_search(&S, spec) < 0) goto done;
    if (must >= S.g.blockers_count || must < -1 || (must >= 0 && !set_has(S.g.allowed, must))) {
        PyErr_SetString(PyExc_ValueError, "the blocker a route must consume is not one the search may take");
        goto done;
    }
    if (must >= 0) {
        S.g.must = must;
        S.g.linking = set_with(S.g.linking, must);
    }
    if (read_state(&S.g, root_spec, &root, 1, &trail) < 0) goto done;
    PyThreadState *unlocked = PyEval_SaveThread();
    int status = run_search(&S, &root, deadline, o, &out);
    helper_stop(&S);
    if (status == 0 && out.have_best) status = route_steps(&S, &root, out.best_record, &trail);
    PyEval_RestoreThread(unlocked);
    if (status < 0) goto done;
    if (!out.have_best) {
        result = Py_BuildValue("(OOLOO)", Py_None, out.complete ? Py_True : Py_False, (long long)out.expanded,
                               Py_None, Py_None);
        goto done;
    }
    {
        PyObject *steps = PyList_New((Py_ssize_t)trail.count);
        if (!steps) goto done;
        for (int64_t i = 0; i < trail.count; i++)
            PyList_SET_ITEM(steps, (Py_ssize_t)i, PyLong_FromLong(trail.items[i]));
        if (PyErr_Occurred()) { Py_DECREF(steps); goto done; }
        result = Py_BuildValue("(LOLNi)", (long long)out.best_hp, out.complete ? Py_True : Py_False,
                               (long long)out.expanded, steps, S.records[out.best_record].goal);
    }
done:
    free(trail.items);
    free_search(&S);
    return result;
}

/* ------------------------------------------------------------------------------- decision searches */

/* Decision searches (first win with at least `at_least` hp) from many states of one level, for the counting
   walk (passages_search.count_solutions), sharing what fails and what wins. A search that ends without a win
   has shown every state it stored to fail, and they stay in the key table for the next searches to prune
   by; a search that wins or runs out of time puts back every state it replaced (its undo log). The step
   table (where raw steps lead) is a fact of the level and is always kept. What wins is kept per state key
   too, as the least hp a win was found from: with more hp every route stays legal. */
typedef struct {
    PyObject_HEAD
    Search S;
    PyObject *spec;         /* holds the cost callback that S.g borrows */
    Options options;
    int64_t *winning_hp;    /* by key id; INT64_MAX: no win known */
    int64_t winning_capacity;
    int ready;
} Decider;

static int Decider_init(Decider *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *spec;
    long long at_least;
    int priced;
    if (!PyArg_ParseTuple(args, "OLp", &spec, &at_least, &priced)) return -1;
    if (self->ready) { PyErr_SetString(PyExc_RuntimeError, "a Decider is made once"); return -1; }
    if (init_search(&self->S, spec) < 0) return -1;
    Py_INCREF(spec);
    self->spec = spec;
    self->options = (Options){.first_win = 1, .dive = 0, .use_dominance = 1, .priced = priced, .steiner = 0,
                              .chain_from = -1, .at_least = at_least};
    self->ready = 1;
    return 0;
}

static void Decider_dealloc(Decider *self) {
    free_search(&self->S);
    free(self->winning_hp);
    Py_XDECREF(self->spec);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* decide(state, deadline) -> True when a route from `state` (as reached: read_state; the closure of a state
   dominates it and is one of its continuations, so both have one answer) reaches a goal with at least
   `at_least` hp, False when none does, None when time ran out. */
static PyObject *Decider_decide(Decider *self, PyObject *args) {
    PyObject *root_spec, *deadline;
    State root;
    if (!self->ready) { PyErr_SetString(PyExc_RuntimeError, "the Decider was not made"); return NULL; }
    Search *S = &self->S;
    if (!PyArg_ParseTuple(args, "OO", &root_spec, &deadline) || read_state(&S->g, root_spec, &root, 1, NULL) < 0)
        return NULL;
    Key k = key_of(&S->g, &root);
    int32_t root_key = keys_find(&S->keys, &k, 1);
    if (root_key < 0) return NULL;
    if (root_key < self->winning_capacity && self->winning_hp[root_key] <= root.hp) Py_RETURN_TRUE;
    queue_free(&S->queue);
    if (queue_init(&S->queue) < 0) return NULL;
    S->undo_active = 1;
    S->undo_count = 0;
    int64_t records_before = S->records_count;
    Outcome out;
    PyThreadState *unlocked = PyEval_SaveThread();
    int status = run_search(S, &root, deadline, self->options, &out);
    PyEval_RestoreThread(unlocked);
    S->undo_active = 0;
    if (status < 0 || out.have_best || !out.complete) {
        /* Not a failure: what this search stored proves nothing. */
        for (int64_t i = S->undo_count - 1; i >= 0; i--) S->keys.entries[S->undo[i].key_id].best = S->undo[i].best;
        S->records_count = records_before;
    }
    if (status < 0) return NULL;
    if (!out.complete) Py_RETURN_NONE;
    if (out.have_best) {
        int64_t old = self->winning_capacity;
        if (grow((void **)&self->winning_hp, &self->winning_capacity, (int64_t)root_key + 1, sizeof(int64_t)) < 0)
            return NULL;
        for (int64_t i = old; i < self->winning_capacity; i++) self->winning_hp[i] = INT64_MAX;
        if (root.hp < self->winning_hp[root_key]) self->winning_hp[root_key] = root.hp;
    }
    return PyBool_FromLong(out.have_best);
}

static PyMethodDef Decider_methods[] = {
    {"decide", (PyCFunction)Decider_decide, METH_VARARGS,
     "decide(root, deadline) -> True, False or None (time ran out): whether a route from root wins."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DeciderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twisty.solver._passages_core.Decider",
    .tp_doc = "Decider(graph, at_least, priced): decision searches of one level sharing what fails.",
    .tp_basicsize = sizeof(Decider),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Decider_init,
    .tp_dealloc = (destructor)Decider_dealloc,
    .tp_methods = Decider_methods,
};

/* ------------------------------------------------------------------------------- the least-need search */

/* The smallest starting hp comes from one search over needs rather than a search per candidate hp: a route's
   need is the least starting hp from which it is legal, the largest of 1 and (cost - net life + 1) over its
   fights, where the net life is elixirs taken minus damage taken. States carry their need and net life; on
   each state key a state is kept unless another has no more need and no more damage (the dominance rule
   above: the copy survives every fight the original survives, from any starting hp); and the search pops the
   least lower bound on the need of any continuation (the need so far, and 1 - the bound on the final net
   life), so the first time that lower bound reaches the least need of a winning route found, that need is
   the answer.

   States carry the net life (starting hp 0) in hp, and each key keeps a front of entries that no other entry
   of the key beats on both need and damage. An entry that comes up gets 1 - (the Steiner bound on the final
   net life) as a lower bound on its need too, and goes back into the queue under it if that is higher: on
   suite level b090-02 this took min_start_hp from 66 s to 30 s. */
typedef struct {
    State state;
    int64_t need, bound;
    int alive;
} NeedEntry;

typedef struct {
    int32_t *items;
    int32_t count, capacity;
} Front;

typedef struct {
    Search S;               /* its graph, key table and step table (raw step -> key id); records unused */
    NeedEntry *entries;
    int64_t entries_count, entries_capacity;
    Front *fronts;          /* by key id */
    int64_t fronts_capacity;
    int64_t best_need;
    /* The win of best_need when the search found it: the entry it was made from (-1: the root) and the
       blocker it took (-1: none, the root itself wins); best_parent -2 while the need is the known one. */
    int32_t best_parent;
    int best_step;
} NeedSearch;

static int front_for(NeedSearch *N, int32_t key_id) {
    if (key_id < N->fronts_capacity) return 0;
    int64_t old = N->fronts_capacity;
    if (grow((void **)&N->fronts, &N->fronts_capacity, key_id + 1, sizeof(Front)) < 0) return -1;
    memset(N->fronts + old, 0, sizeof(Front) * (size_t)(N->fronts_capacity - old));
    return 0;
}

/* Offer a state to the least-need search: kept unless its lower bound cannot beat the best need or another
   entry of its key has no more need and no more damage. -1 on error. */
static int need_offer(NeedSearch *N, const State *state, int32_t key_id, int64_t need) {
    Graph *g = &N->S.g;
    int64_t bound = bound_of(g, state);
    int64_t low = need > 1 - bound ? need : 1 - bound;
    if (low >= N->best_need) return 0;
    if (state->goal >= 0) {     /* going on cannot lower its need */
        N->best_need = need;
        N->best_parent = state->parent;
        N->best_step = state->step;
        return 0;
    }
    if (front_for(N, key_id) < 0) return -1;
    Front *front = &N->fronts[key_id];
    int64_t damage = state->elixirs - state->hp;
    for (int32_t i = 0; i < front->count; i++) {
        const NeedEntry *other = &N->entries[front->items[i]];
        if (other->need <= need && other->state.elixirs - other->state.hp <= damage) return 0;
    }
    if (N->entries_count >= INT32_MAX - 1) { no_memory(); return -1; }
    if (grow((void **)&N->entries, &N->entries_capacity, N->entries_count + 1, sizeof(NeedEntry)) < 0) return -1;
    int32_t index = (int32_t)N->entries_count++;
    NeedEntry *entry = &N->entries[index];
    entry->state = *state;
    entry->state.key_id = key_id;
    entry->state.refined = 0;
    entry->need = need;
    entry->bound = bound;
    entry->alive = 1;
    int32_t kept = 0;
    for (int32_t i = 0; i < front->count; i++) {
        NeedEntry *other = &N->entries[front->items[i]];
        if (other->need >= need && other->state.elixirs - other->state.hp >= damage) other->alive = 0;
        else front->items[kept++] = front->items[i];
    }
    front->count = kept;
    if (front->count == front->capacity) {
        int32_t wanted = front->capacity ? 2 * front->capacity : 4;
        int32_t *grown = realloc(front->items, sizeof(int32_t) * (size_t)wanted);
        if (!grown) { no_memory(); return -1; }
        front->items = grown;
        front->capacity = wanted;
    }
    front->items[front->count++] = index;
    return queue_push(&N->S.queue, low, -(int64_t)set_count(state->consumed), index);
}

/* Dominance application 3 with needs: a kept entry one enemy step further on with no more need. */
static int need_dominated(NeedSearch *N, const NeedEntry *entry) {
    const Graph *g = &N->S.g;
    const State *s = &entry->state;
    set_t linked = set_and(s->consumed, g->linking);
    int64_t damage = s->elixirs - s->hp;
    int opened[MAX_FIELDS];
    doors_opened(g, s->consumed, opened);
    set_t enemies = set_andnot(set_andnot(s->frontier, g->door_mask), g->ending);
    FOR_EACH(f, enemies, {
        StepEntry *step = steps_slot(&N->S.steps, set_with(s->consumed, f));
        if (step->key_id >= 0 && step->key_id != s->key_id && step->key_id < N->fronts_capacity) {
            const Front *front = &N->fronts[step->key_id];
            for (int32_t i = 0; i < front->count; i++) {
                const NeedEntry *other = &N->entries[front->items[i]];
                if (other->need <= entry->need && other->state.elixirs - other->state.hp <= damage
                        && reaches_beyond(g, &other->state, s->areas, linked, opened))
                    return 1;
            }
        }
    })
    return 0;
}

/* The way of the least-need search's best win: every blocker from the root (its closure included, which
   `trail` holds already) to the win, each step followed by its closure. Runs without the GIL. */
static int need_route(NeedSearch *N, const State *root, Trail *trail, int *goal) {
    Graph *g = &N->S.g;
    Trail way = {NULL, 0, 0};
    int status = 0;
    if (N->best_step >= 0) status = trail_add(&way, N->best_step);
    for (int32_t at = N->best_parent; at >= 0 && status == 0; at = N->entries[at].state.parent)
        if (N->entries[at].state.step >= 0) status = trail_add(&way, N->entries[at].state.step);
    State state = *root;
    for (int64_t i = way.count - 1; i >= 0 && status == 0; i--) {
        int b = way.items[i];
        CostTable *table = costs_at(g, state.atk, state.defense);
        int64_t cost = g->blockers[b].is_door || !table ? 0 : table->costs[b];
        status = !table || trail_add(trail, b) < 0 ? -1 : consume(g, &state, b, cost, &state, trail);
    }
    free(way.items);
    *goal = state.goal;
    if (status == 0 && state.goal < 0) {
        PyGILState_STATE gil = PyGILState_Ensure();
        PyErr_SetString(PyExc_SystemError, "the least-need search's way to its win does not reach a goal");
        PyGILState_Release(gil);
        return -1;
    }
    return status;
}

/* least_need(graph, root, deadline, known, steiner) -> (the least starting hp that wins, or None when time
   ran out, expanded, steps, goal). The graph's allowed blockers are the walker's; root is the walker's
   start with hp the net life (starting hp 0), its closure taken; known is the need of a winning route
   already found; steiner: with the Steiner bound. When the search found a win of less need than `known`,
   steps = every blocker it consumes from root (closures included) and goal = the goal it reaches; else
   both None. */
static PyObject *least_need(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spec, *root_spec, *deadline;
    long long known;
    int steiner;
    if (!PyArg_ParseTuple(args, "OOOLp", &spec, &root_spec, &deadline, &known, &steiner)) return NULL;
    NeedSearch N;
    memset(&N, 0, sizeof(N));
    Search *S = &N.S;
    Graph *g = &S->g;
    PyObject *result = NULL;
    PyThreadState *unlocked = NULL;
    State root;
    int finished = 1, goal = -1;
    int64_t expanded = 0;
    Trail trail = {NULL, 0, 0};
    N.best_need = known;
    N.best_parent = -2;
    if (init_search(S, spec) < 0 || read_state(g, root_spec, &root, 1, &trail) < 0) goto done;
    unlocked = PyEval_SaveThread();
    {
        Key k = key_of(g, &root);
        int32_t root_key = keys_find(&S->keys, &k, 1);
        if (root_key < 0 || need_offer(&N, &root, root_key, 1) < 0) goto done;
    }
    int64_t work = 0, next_look = NEED_CLOCK_EVERY;
    while (S->queue.size > 0) {
        if (work >= next_look) {
            next_look = work + NEED_CLOCK_EVERY;
            int over = expired(deadline);
            if (over < 0) goto done;
            if (over) { finished = 0; break; }
        }
        int64_t low, second;
        int32_t index = queue_pop(&S->queue, &low, &second);
        if (low >= N.best_need) break;
        if (!N.entries[index].alive) continue;
        NeedEntry entry = N.entries[index];
        const State *state = &entry.state;
        if (need_dominated(&N, &entry)) continue;       /* application 3, as in the best-route search */
        if (steiner && g->steiner && !state->refined) {
            /* The Steiner bound on the final net life, once per entry that comes up. */
            work += BOUND_WORK;
            int64_t tighter = 1 - steiner_bound(g, state);
            if (tighter > low) {
                if (tighter < N.best_need) {
                    N.entries[index].state.refined = 1;
                    if (queue_push(&S->queue, tighter, second, index) < 0) goto done;
                }
                continue;
            }
        }
        expanded++;
        work++;
        /* A child's bound is at most this state's less (cost - least damage): header comment, "Bound". */
        int64_t least_final_need = 1 - entry.bound;
        CostTable *table = costs_at(g, state->atk, state->defense);
        if (!table) goto done;
        const int64_t *costs = table->costs;
        FOR_EACH(b, state->frontier, {
            const Blocker *blocker = &g->blockers[b];
            int64_t cost;
            if (!move_cost(g, state, b, costs, 0, &cost)) continue;
            int64_t child_need = cost - state->hp + 1 > entry.need ? cost - state->hp + 1 : entry.need;
            int64_t least = blocker->least < 0 ? 0 : blocker->least;
            if (child_need >= N.best_need || least_final_need + cost - least >= N.best_need) continue;
            if (blocker->ends) {
                N.best_need = child_need;       /* the boss: a win, with this need (it ends the route) */
                N.best_parent = index;
                N.best_step = b;
                continue;
            }
            State child;
            if (consume(g, state, b, cost, &child, NULL) < 0) goto done;
            child.parent = index;
            child.step = (int16_t)b;
            set_t raw = set_with(state->consumed, b);
            Key ck = key_of(g, &child);
            int32_t child_key = keys_find(&S->keys, &ck, 1);
            if (child_key < 0) goto done;
            StepEntry *slot = steps_slot(&S->steps, raw);
            if (steps_store(&S->steps, slot, raw, child_key) < 0) goto done;
            if (need_offer(&N, &child, child_key, child_need) < 0) goto done;
        })
    }
    if (finished && N.best_parent != -2 && need_route(&N, &root, &trail, &goal) < 0) goto done;
    PyEval_RestoreThread(unlocked);
    unlocked = NULL;
    if (!finished) {
        result = Py_BuildValue("(OLOO)", Py_None, (long long)expanded, Py_None, Py_None);
    } else if (N.best_parent == -2) {
        result = Py_BuildValue("(LLOO)", (long long)N.best_need, (long long)expanded, Py_None, Py_None);
    } else {
        PyObject *steps = PyList_New((Py_ssize_t)trail.count);
        if (!steps) goto done;
        for (int64_t i = 0; i < trail.count; i++) PyList_SET_ITEM(steps, (Py_ssize_t)i, PyLong_FromLong(trail.items[i]));
        if (PyErr_Occurred()) { Py_DECREF(steps); goto done; }
        result = Py_BuildValue("(LLNi)", (long long)N.best_need, (long long)expanded, steps, goal);
    }
done:
    if (unlocked) PyEval_RestoreThread(unlocked);
    free(trail.items);
    for (int64_t i = 0; i < N.fronts_capacity; i++) free(N.fronts[i].items);
    free(N.fronts);
    free(N.entries);
    free_search(S);
    return result;
}

/* bound(graph, state, which, floor=NO_WIN, enough=None) -> one of the search's bounds on the final hp of
   any continuation of `state` (as reached, not closed: read_state), for the tests that hold each bound to
   the plain rules and to hand-computed values: which = "tree" (bound_of), "priced" (priced_bound, with
   its early answers at `floor` and `enough`), "steiner" (stopping at `floor`) or "chain" (chain_bound
   given that floor, capped by the Steiner bound); None for the last two where the level does not fit the
   Steiner graph. */
static PyObject *bound_py(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spec, *state_spec, *result = NULL, *enough_arg = Py_None;
    const char *which;
    long long floor = NO_WIN;
    if (!PyArg_ParseTuple(args, "OOs|LO", &spec, &state_spec, &which, &floor, &enough_arg)) return NULL;
    int64_t enough = INT64_MAX;
    if (enough_arg != Py_None) {
        enough = PyLong_AsLongLong(enough_arg);
        if (enough == -1 && PyErr_Occurred()) return NULL;
    }
    Search S;
    memset(&S, 0, sizeof(S));
    State state;
    int error = 0;
    if (init_search(&S, spec) < 0 || read_state(&S.g, state_spec, &state, 0, NULL) < 0) goto done;
    if (strcmp(which, "tree") == 0) {
        result = PyLong_FromLongLong(bound_of(&S.g, &state));
    } else if (strcmp(which, "priced") == 0) {
        int64_t value = priced_bound(&S.g, &state, enough, floor, &error);
        if (!error) result = PyLong_FromLongLong(value);
    } else if (strcmp(which, "steiner") == 0 || strcmp(which, "chain") == 0) {
        if (!S.g.steiner) { result = Py_None; Py_INCREF(result); goto done; }
        if (which[0] == 's') {
            result = PyLong_FromLongLong(steiner_bound_priced(&S.g, S.g.scratch, &state, NULL, (set_t){{0, 0}}, floor));
        } else {
            int64_t value = chain_bound(&S.g, S.g.scratch, &state, steiner_bound(&S.g, &state), floor, NULL, &error);
            if (!error) result = PyLong_FromLongLong(value);
        }
    } else if (strcmp(which, "entry") == 0) {
        /* per goal side, nearest the goal first: (its entry bound or None where the state entered it, the
           elixirs of its supernodes) */
        if (!S.g.steiner) { result = Py_None; Py_INCREF(result); goto done; }
        result = PyList_New(0);
        for (int k = 0; result && k < S.g.steiner->sides_count; k++) {
            int entered = side_entered(&S.g, &state, k);
            int64_t value = entered ? 0 : chain_bound_side(&S.g, S.g.scratch, &state, NO_ARC, floor, NULL, &error, k);
            if (error) { Py_CLEAR(result); break; }
            PyObject *pair = entered ? Py_BuildValue("(OL)", Py_None, (long long)S.g.steiner->side_prize[k])
                                     : Py_BuildValue("(LL)", (long long)value, (long long)S.g.steiner->side_prize[k]);
            if (!pair || PyList_Append(result, pair) < 0) Py_CLEAR(result);
            Py_XDECREF(pair);
        }
    } else {
        PyErr_Format(PyExc_ValueError, "no bound called %s", which);
    }
done:
    free_search(&S);
    return result;
}

/* A state in the form read_state reads. */
static PyObject *state_tuple(const State *s) {
    return Py_BuildValue("(y#y#LLLLLy#i)", (const char *)&s->consumed, (Py_ssize_t)sizeof(set_t),
                         (const char *)&s->areas, (Py_ssize_t)sizeof(set_t), (long long)s->atk,
                         (long long)s->defense, (long long)s->keys, (long long)s->hp, (long long)s->elixirs,
                         (const char *)&s->frontier, (Py_ssize_t)sizeof(set_t), s->goal);
}

/* follow(graph, state, steps, close) -> [the state before the first step, then after each]: from `state`
   (as reached, closed when `close`), consume each blocker of `steps` in turn at its cost by the cost
   tables, with the closure after each when `close`. Each state is in the form read_state reads, the masks
   as bytes. For the tests that hold the core's own step to the rules' functions; a step that is not a legal
   move now (not on the frontier, a door without a key, a fight not survived) raises ValueError. */
static PyObject *follow_py(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spec, *state_spec, *steps, *result = NULL, *states = NULL;
    int close;
    if (!PyArg_ParseTuple(args, "OOOp", &spec, &state_spec, &steps, &close)) return NULL;
    Search S;
    memset(&S, 0, sizeof(S));
    State state;
    PyObject *seq = PySequence_Fast(steps, "steps must be a sequence");
    if (!seq || init_search(&S, spec) < 0 || read_state(&S.g, state_spec, &state, close, NULL) < 0) goto done;
    states = PyList_New(0);
    PyObject *first = states ? state_tuple(&state) : NULL;
    if (!first || PyList_Append(states, first) < 0) { Py_XDECREF(first); goto done; }
    Py_DECREF(first);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (b == -1 && PyErr_Occurred()) goto done;
        CostTable *table = costs_at(&S.g, state.atk, state.defense);
        if (!table) goto done;
        if (b < 0 || b >= S.g.blockers_count || !set_has(state.frontier, (int)b)
                || (S.g.blockers[b].is_door ? !(S.g.blockers[b].purchase ? affordable(&S.g, state.consumed)
                                                                         : state.keys & S.g.blockers[b].key_bits)
                                            : table->costs[b] < 0 || table->costs[b] >= state.hp)) {
            PyErr_Format(PyExc_ValueError, "step %zd: blocker %ld cannot be consumed now", i, b);
            goto done;
        }
        int64_t cost = S.g.blockers[b].is_door ? 0 : table->costs[b];
        if (close) {
            if (consume(&S.g, &state, (int)b, cost, &state, NULL) < 0) goto done;
        } else if (S.g.blockers[b].ends) {
            if (consume(&S.g, &state, (int)b, cost, &state, NULL) < 0) goto done;
        } else {
            state.hp -= cost;
            take_blocker(&S.g, &state, (int)b);
        }
        PyObject *item = state_tuple(&state);
        if (!item || PyList_Append(states, item) < 0) { Py_XDECREF(item); goto done; }
        Py_DECREF(item);
    }
    result = states;
    states = NULL;
done:
    Py_XDECREF(states);
    Py_XDECREF(seq);
    free_search(&S);
    return result;
}

/* first_win_any(graph, roots, deadline, at_least) -> (index, complete, expanded, steps, goal): one
   first-win search (at least `at_least` hp) from every state of the list `roots` at once (each as reached,
   read_state, its closure taken), for the counting engine (passages_count), which hands it every deviation
   of a walk: index = the root the route found starts from and steps = every blocker it consumed from that
   root (its closure included); index, steps and goal None when none wins (complete: a proof). */
static PyObject *first_win_any(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spec, *roots_spec, *deadline;
    long long at_least;
    if (!PyArg_ParseTuple(args, "OO!OL", &spec, &PyList_Type, &roots_spec, &deadline, &at_least)) return NULL;
    Options o = {.first_win = 1, .dive = 0, .use_dominance = 1, .priced = 0, .steiner = 0, .chain_from = -1,
                 .at_least = at_least, .threads = 1};
    Search S;
    memset(&S, 0, sizeof(S));
    Trail trail = {NULL, 0, 0};
    PyObject *result = NULL;
    Py_ssize_t count = PyList_GET_SIZE(roots_spec);
    State *roots = count ? malloc((size_t)count * sizeof(State)) : NULL;
    if (count && !roots) { no_memory(); return NULL; }
    Outcome out;
    if (init_search(&S, spec) < 0) goto done;
    for (Py_ssize_t i = 0; i < count; i++)
        if (read_state(&S.g, PyList_GET_ITEM(roots_spec, i), &roots[i], 1, NULL) < 0) goto done;
    if (count > INT32_MAX) { no_memory(); goto done; }
    PyThreadState *unlocked = PyEval_SaveThread();
    int status = run_search_roots(&S, roots, (int)count, deadline, o, &out);
    PyEval_RestoreThread(unlocked);
    if (status < 0) goto done;
    if (!out.have_best) {
        result = Py_BuildValue("(OOLOO)", Py_None, out.complete ? Py_True : Py_False, (long long)out.expanded,
                               Py_None, Py_None);
        goto done;
    }
    {
        int32_t first = out.best_record;
        while (S.records[first].parent >= 0) first = S.records[first].parent;
        /* Root records were made in the order of the list, the skipped ones left out: find which it is. */
        Py_ssize_t index = -1;
        for (Py_ssize_t i = 0; i < count && index < 0; i++)
            if (set_equal(roots[i].consumed, S.records[first].consumed) && roots[i].hp == S.records[first].hp
                    && set_equal(roots[i].areas, S.records[first].areas))
                index = i;
        State root;
        if (index < 0 || read_state(&S.g, PyList_GET_ITEM(roots_spec, index), &root, 1, &trail) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "first_win_any lost its root");
            goto done;
        }
        unlocked = PyEval_SaveThread();
        status = route_steps(&S, &root, out.best_record, &trail);
        PyEval_RestoreThread(unlocked);
        if (status < 0) goto done;
        PyObject *steps = PyList_New((Py_ssize_t)trail.count);
        if (!steps) goto done;
        for (int64_t i = 0; i < trail.count; i++)
            PyList_SET_ITEM(steps, (Py_ssize_t)i, PyLong_FromLong(trail.items[i]));
        if (PyErr_Occurred()) { Py_DECREF(steps); goto done; }
        result = Py_BuildValue("(nOLNi)", index, Py_True, (long long)out.expanded, steps,
                               S.records[out.best_record].goal);
    }
done:
    free(roots);
    free(trail.items);
    free_search(&S);
    return result;
}

/* ------------------------------------------------------------------------------------ the counting walk */

/* The counting engine's question (twisty/solver/passages_count.py has the argument at length): given the
   signatures S_1..S_k already found, is there a winning route (at least `at_least` hp at a goal) whose
   signature is none of them? A route prefix is consistent with S_i when it can still end with exactly S_i:
   every door it opened is one of S_i's, every enemy it fought for life is one of S_i's fights at S_i's
   (atk, def), every enemy it fought for nothing is none of S_i's fights. The prefixes consistent with some
   S_i are walked depth first; each step off them (a deviation) starts routes whose signature is new
   whatever they do next, so whether one of them wins is a plain decision question, asked of one first-win
   search from every deviation at once, with the bound, closure and dominance of the best route's search.
   A consistent prefix at a goal whose signature is none of the S_i (it ends before it has all of some
   S_i's doors and fights) is a new solution too.

   Independent fights commute: a consistent prefix is fixed, life included, by its consumed set C and any
   S_i it is consistent with (its costly fights are then S_i's fights among C, at S_i's stats), so the walk
   stores each class (C, the least such i) once, however many orders of its fights lead there, and expands
   it once; the orders themselves are never walked. The deviations of the walk go into the search's key
   table as they are made, so a deviation whose position is queued already with as much life costs a
   lookup, and every one of them a step-table lookup before its closure.

   Free fights that cannot change a signature are taken at once (neutral fights: a free enemy of no alive
   S_i's fights, opening no equipment): any route without such a fight f has a twin that fights f first and
   then goes on the same way, with the same stats at every later fight (f opens no equipment), no less life
   or keys, and the same signature (f, free, is in none).

   Quiet steps are taken only when used. A consistent step y is quiet when it and the neutral fights after
   it take no item (no equipment, elixir or key) and it keeps every alive signature alive; its fresh
   frontier is what it (with those fights) added to the frontier. From the class it reaches, the walk takes
   only fresh blockers (consistent steps and deviations alike), and checks the goal. Why nothing is lost:
   take a winning route W of a new signature whose consistent prefix has a quiet step y followed by a step
   z that does not need y (z was on the frontier before y). Fighting z first, then y, is a route too, and
   as good: z meets the same stats (y took no equipment), the same alive signatures (y kept them all),
   hence the same verdict (consistent with the same signatures, or a deviation), and more life and no fewer
   keys; y, later, meets stats at least as high, so it costs no more, and the life after both is no less.
   Its signature is new still: if z took equipment and y's fight is now at other stats, no alive signature
   has y at those stats (each had it at the old ones), so the route deviates at y; else the signature is
   W's. So y moves on to just before the first step that needs it, past the deviation, or (a route that
   stays consistent to a goal that does not need it) out of the route: then it has less of every alive
   signature than W had, so it is still none of them, and the prefix without y is consistent with the same
   signatures (y kept them all), so with no other either. Each move takes a quiet step later; in the end
   every quiet step of the prefix is followed by a step that needs it, that is, by a fresh one: the walk
   meets that route's deviation (or its end at the goal) in a class it walks. On the 120-blocker drafts
   of the generator, whose intended routes fight dozens of enemies that open nothing after the last
   equipment, this is what keeps the classes from multiplying by every order of those fights.

   The walk reads a graph whose allowed blockers are every blocker a route may take (a signature may fight
   in a dead end), the search the graph of the best route's search (dead ends never entered: any win will
   do there). */

typedef struct {
    int count, words;       /* signatures, and the 64-bit words of a set of them */
    int blockers;
    set_t *doors, *fights;  /* per signature */
    int64_t *atk, *defense; /* [i * blockers + b]: S_i's stats at its fight of b */
    uint64_t *door_of;      /* [b * words + w]: the signatures that open door b */
    uint64_t *fight_of;     /* [b * words + w]: the signatures that fight b for life */
} KnownSet;

static void known_free(KnownSet *k) {
    free(k->doors); free(k->fights); free(k->atk); free(k->defense); free(k->door_of); free(k->fight_of);
    memset(k, 0, sizeof(KnownSet));
}

/* The signatures as Python gives them: a list of (doors, fights, ((blocker, atk, def), ...)), the masks as
   set bytes. */
static int read_known(PyObject *list, int blockers, KnownSet *k) {
    memset(k, 0, sizeof(KnownSet));
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "the known signatures must be a list");
        return -1;
    }
    k->count = (int)PyList_GET_SIZE(list);
    k->words = k->count / 64 + 1;
    k->blockers = blockers;
    size_t n = (size_t)k->count + 1, per = (size_t)blockers + 1;
    k->doors = calloc(n, sizeof(set_t));
    k->fights = calloc(n, sizeof(set_t));
    k->atk = calloc(n * per, sizeof(int64_t));
    k->defense = calloc(n * per, sizeof(int64_t));
    k->door_of = calloc(per * (size_t)k->words, sizeof(uint64_t));
    k->fight_of = calloc(per * (size_t)k->words, sizeof(uint64_t));
    if (!k->doors || !k->fights || !k->atk || !k->defense || !k->door_of || !k->fight_of) {
        known_free(k);
        no_memory();
        return -1;
    }
    for (int i = 0; i < k->count; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (tuple_of(item, 3, "a known signature") < 0 || read_set(PyTuple_GET_ITEM(item, 0), &k->doors[i]) < 0
                || read_set(PyTuple_GET_ITEM(item, 1), &k->fights[i]) < 0)
            goto failed;
        PyObject *stats = PyTuple_GET_ITEM(item, 2);
        if (!PyTuple_Check(stats)) { PyErr_SetString(PyExc_ValueError, "a signature's stats must be a tuple"); goto failed; }
        set_t seen = {{0, 0}};
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(stats); j++) {
            PyObject *fight = PyTuple_GET_ITEM(stats, j);
            int b;
            int64_t atk, defense;
            if (tuple_of(fight, 3, "a fight of a signature") < 0 || read_small(fight, 0, &b) < 0
                    || read_int(fight, 1, &atk) < 0 || read_int(fight, 2, &defense) < 0)
                goto failed;
            if (b < 0 || b >= blockers) { PyErr_SetString(PyExc_ValueError, "a signature fights no blocker"); goto failed; }
            k->atk[(size_t)i * per + (size_t)b] = atk;
            k->defense[(size_t)i * per + (size_t)b] = defense;
            seen = set_with(seen, b);
        }
        if (!set_equal(seen, k->fights[i]) || !set_empty(set_and(k->doors[i], k->fights[i]))) {
            PyErr_SetString(PyExc_ValueError, "a signature's stats must be those of its fights");
            goto failed;
        }
        uint64_t bit = (uint64_t)1 << (i & 63);
        FOR_EACH(b, k->doors[i], { if (b < blockers) k->door_of[(size_t)b * (size_t)k->words + (size_t)(i >> 6)] |= bit; })
        FOR_EACH(b, k->fights[i], { if (b < blockers) k->fight_of[(size_t)b * (size_t)k->words + (size_t)(i >> 6)] |= bit; })
    }
    return 0;
failed:
    known_free(k);
    return -1;
}

/* A walked class: its consumed set, the least signature it is consistent with (-1: an empty slot), and the
   quiet step it was reached by, which restricts its moves (-1: none; "Quiet steps" above). */
typedef struct {
    set_t consumed;
    int32_t lowest;
    int32_t quiet;
} ClassEntry;

typedef struct {
    ClassEntry *slots;
    int64_t capacity, count;
} ClassTable;

static inline uint64_t class_hash(set_t consumed, int32_t lowest, int32_t quiet) {
    uint64_t h = mix(mix(0, consumed.w[0]), consumed.w[1] ^ ((uint64_t)(uint32_t)lowest << 40));
    h = mix(h, (uint64_t)(uint32_t)quiet);
    return h ^ (h >> 29);
}

/* Whether the class was walked already; with `enter`, it is entered when not. -1 on error. */
static int class_seen(ClassTable *t, set_t consumed, int32_t lowest, int32_t quiet, int enter) {
    if (2 * (t->count + 1) > t->capacity) {
        int64_t old_capacity = t->capacity;
        ClassEntry *old = t->slots;
        t->capacity = old_capacity ? 2 * old_capacity : 1 << 12;
        t->slots = malloc(sizeof(ClassEntry) * (size_t)t->capacity);
        if (!t->slots) { t->slots = old; t->capacity = old_capacity; no_memory(); return -1; }
        for (int64_t i = 0; i < t->capacity; i++) t->slots[i].lowest = -1;
        uint64_t mask = (uint64_t)t->capacity - 1;
        for (int64_t i = 0; i < old_capacity; i++) {
            if (old[i].lowest < 0) continue;
            uint64_t to = class_hash(old[i].consumed, old[i].lowest, old[i].quiet) & mask;
            while (t->slots[to].lowest >= 0) to = (to + 1) & mask;
            t->slots[to] = old[i];
        }
        free(old);
    }
    uint64_t mask = (uint64_t)t->capacity - 1;
    uint64_t at = class_hash(consumed, lowest, quiet) & mask;
    while (t->slots[at].lowest >= 0) {
        const ClassEntry *e = &t->slots[at];
        if (e->lowest == lowest && e->quiet == quiet && set_equal(e->consumed, consumed)) return 1;
        at = (at + 1) & mask;
    }
    if (!enter) return 0;
    t->slots[at].consumed = consumed;
    t->slots[at].lowest = lowest;
    t->slots[at].quiet = quiet;
    t->count++;
    return 0;
}

/* The way to a walked class: the class it was reached from (-1: the start) and the blocker taken. */
typedef struct {
    int32_t parent;
    int16_t step;
} WalkNode;

/* A consistent prefix waiting on the walk's stack: its position (not closed), the node it comes from and
   the blocker it took (a node is made when the prefix is walked), where its set of alive signatures is in
   the stack of words, and, when that blocker was taken from a class with the same alive signatures, the
   class's frontier and gains (to tell whether the step was quiet, closure included). */
typedef struct {
    State s;
    int32_t parent;
    int16_t step;
    int16_t same_alive;
    int64_t alive_at;
    set_t base_frontier;
    int64_t base_atk, base_defense, base_keys, base_elixirs;
} WalkItem;

/* A deviation: the walked node it steps off from and the blocker it takes (-1: the start itself, when
   nothing is known). */
typedef struct {
    int32_t node;
    int16_t step;
} Deviation;

typedef struct {
    PyObject_HEAD
    Search W;               /* the walk's graph (every blocker allowed) and its cost tables */
    Graph *search_graph;    /* read once; each question's search copies it */
    Search S;               /* the first-win search of the current question */
    PyObject *specs;        /* holds the cost callbacks the graphs borrow */
    int ready;
    Search D;               /* the budgeted dive of each question, before its best-first search */
    int priced, steiner;    /* the best-first search's lazy bounds: the priced; the Steiner and chain */
    int64_t dive_budget;    /* expansions of the dive (0: no dive) */
    int dived;              /* the current question's dive was tried */
    /* the last question's counts: classes walked, deviations queued, states the search expanded */
    int64_t walked, deviations, expanded, pruned;
} Walker;

typedef struct {
    WalkNode *nodes;
    int64_t nodes_count, nodes_capacity;
    WalkItem *stack;
    int64_t stack_count, stack_capacity;
    uint64_t *alive;        /* the stack's sets of alive signatures, `words` each */
    int64_t alive_count, alive_capacity;
    Deviation *deviations;
    int64_t deviations_count, deviations_capacity;
    ClassTable classes;
} WalkSpace;

static void walk_space_free(WalkSpace *w) {
    free(w->nodes); free(w->stack); free(w->alive); free(w->deviations); free(w->classes.slots);
    memset(w, 0, sizeof(WalkSpace));
}

static int walk_push(WalkSpace *w, const State *s, int32_t parent, int b, const uint64_t *alive, int words,
                     const State *base, int same_alive) {
    if (grow((void **)&w->stack, &w->stack_capacity, w->stack_count + 1, sizeof(WalkItem)) < 0
            || grow((void **)&w->alive, &w->alive_capacity, w->alive_count + words, sizeof(uint64_t)) < 0)
        return -1;
    WalkItem *item = &w->stack[w->stack_count++];
    item->s = *s;
    item->parent = parent;
    item->step = (int16_t)b;
    item->same_alive = (int16_t)(base && same_alive);
    if (base) {
        item->base_frontier = base->frontier;
        item->base_atk = base->atk;
        item->base_defense = base->defense;
        item->base_keys = base->keys;
        item->base_elixirs = base->elixirs;
    }
    item->alive_at = w->alive_count;
    memcpy(w->alive + w->alive_count, alive, sizeof(uint64_t) * (size_t)words);
    w->alive_count += words;
    return 0;
}

static int32_t walk_node(WalkSpace *w, int32_t parent, int b) {
    if (w->nodes_count >= INT32_MAX - 1) { no_memory(); return -1; }
    if (grow((void **)&w->nodes, &w->nodes_capacity, w->nodes_count + 1, sizeof(WalkNode)) < 0) return -1;
    w->nodes[w->nodes_count] = (WalkNode){parent, (int16_t)b};
    return (int32_t)w->nodes_count++;
}

static inline int lowest_alive(const uint64_t *alive, int words) {
    for (int w = 0; w < words; w++)
        if (alive[w]) return w * 64 + __builtin_ctzll(alive[w]);
    return -1;
}

/* Whether enemy b, taken now, reaches an area with equipment. */
static inline int opens_equipment(const Graph *g, const State *s, int b) {
    set_t fresh = set_andnot(g->blockers[b].areas, s->areas);
    FOR_EACH(a, fresh, { if (g->areas[a].atk || g->areas[a].defense) return 1; })
    return 0;
}

/* The move of the walk over frontier blocker b (every rule of docs/passages.md: a door needs a key, a fight
   must be winnable and leave life), into `out` with its cost; 0 when not allowed. */
static inline int walk_step(const Graph *g, const State *s, int b, const int64_t *costs, State *out, int64_t *cost) {
    const Blocker *blocker = &g->blockers[b];
    if (blocker->is_door) {
        if (!(s->keys & blocker->key_bits)) return 0;
        *cost = 0;
    } else {
        *cost = costs[b];
        if (*cost < 0 || *cost >= s->hp) return 0;
    }
    *out = *s;
    out->hp -= *cost;
    take_blocker(g, out, b);
    return 1;
}

/* The blockers from the start to walked node `node`, in order, appended to `trail`. */
static int walk_way(const WalkSpace *w, int32_t node, Trail *trail) {
    int64_t first = trail->count;
    for (int32_t at = node; at >= 0; at = w->nodes[at].parent)
        if (w->nodes[at].step >= 0 && trail_add(trail, w->nodes[at].step) < 0) return -1;
    for (int64_t i = first, j = trail->count - 1; i < j; i++, j--) {
        int swap = trail->items[i];
        trail->items[i] = trail->items[j];
        trail->items[j] = swap;
    }
    return 0;
}

static int search_deviations(Walker *self, const WalkSpace *w, const State *root, PyObject *deadline, Options o,
                             Trail *trail, int *goal);

/* The search runs on the deviations queued so far whenever their number has doubled since it last ran
   (from this many on), so that a question with an answer near the start of the walk is answered without
   walking the rest; a search that ends without a win leaves what it stored as failures for the next. */
#define FIRST_SEARCH_AT 4096

/* The walk of one question (header above). Returns 1 when it found a route of a new signature (a
   consistent prefix that ends one at a goal, or a win of the search from a deviation: its steps in
   `trail`, the goal in *goal), 0 when neither exists, 2 when time ran out, -1 on error. Runs without the
   GIL. */
static int walk_classes(Walker *self, WalkSpace *w, const State *root, const KnownSet *k, int64_t at_least,
                        PyObject *deadline, Options o, Trail *trail, int *goal) {
    Graph *g = &self->W.g;
    Search *S = &self->S;
    const int words = k->words;
    uint64_t *alive = malloc(sizeof(uint64_t) * (size_t)words);
    uint64_t *still = malloc(sizeof(uint64_t) * (size_t)words);
    int status = -1;
    if (!alive || !still) { no_memory(); goto done; }
    memset(alive, 0, sizeof(uint64_t) * (size_t)words);
    for (int i = 0; i < k->count; i++) alive[i >> 6] |= (uint64_t)1 << (i & 63);
    if (walk_push(w, root, -1, -1, alive, words, NULL, 0) < 0) goto done;
    int64_t ticks = 0, next_search = FIRST_SEARCH_AT;
    while (w->stack_count) {
        if (++ticks % CLOCK_EVERY == 0) {
            int over = expired(deadline);
            if (over < 0) goto done;
            if (over) { status = 2; goto done; }
        }
        WalkItem item = w->stack[--w->stack_count];
        memcpy(alive, w->alive + item.alive_at, sizeof(uint64_t) * (size_t)words);
        w->alive_count = item.alive_at;
        int lowest = lowest_alive(alive, words);
        int32_t quiet_from = item.same_alive ? item.step : -1;
        int seen = class_seen(&w->classes, item.s.consumed, lowest, quiet_from, 1);
        if (seen) { if (seen < 0) goto done; continue; }
        int32_t node = walk_node(w, item.parent, item.step);
        if (node < 0) goto done;
        State s = item.s;
        /* Neutral fights, lowest first, again and again. */
        set_t fights = {{0, 0}};
        for (int i = lowest; i >= 0 && i < k->count; i++)
            if (alive[i >> 6] >> (i & 63) & 1) fights = set_or(fights, k->fights[i]);
        int closed = 0;
        for (;;) {
            CostTable *table = costs_at(g, s.atk, s.defense);
            if (!table) goto done;
            set_t candidates = set_andnot(set_andnot(set_and(table->free, s.frontier), g->door_mask), fights);
            int taken = -1;
            FOR_EACH(b, candidates, { if (taken < 0 && !opens_equipment(g, &s, b)) taken = b; })
            if (taken < 0) break;
            take_blocker(g, &s, taken);
            node = walk_node(w, node, taken);
            if (node < 0) goto done;
            closed = 1;
        }
        /* Quiet: no item taken on the way from the class it came from, and every alive signature kept. */
        int is_door = item.step >= 0 && g->blockers[item.step].is_door;
        int32_t quiet = item.same_alive && s.atk == item.base_atk && s.defense == item.base_defense
                                && s.elixirs == item.base_elixirs
                                && s.keys + (is_door ? g->blockers[item.step].key_unit : 0) == item.base_keys
                            ? item.step : -1;
        set_t fresh = set_andnot(s.frontier, item.base_frontier);
        if (closed || quiet != quiet_from) {
            seen = class_seen(&w->classes, s.consumed, lowest, quiet, 1);
            if (seen) { if (seen < 0) goto done; continue; }
        }
        if (quiet >= 0) {
            /* (walked without the restriction already: nothing more to walk) */
            seen = class_seen(&w->classes, s.consumed, lowest, -1, 0);
            if (seen) { if (seen < 0) goto done; continue; }
        }
        /* No route from a class whose bound (header comment, "Bound": admissible from any position) is
           below at_least wins, whatever it does next: neither its consistent continuations nor its
           deviations need walking. */
        if (bound_of(g, &s) < at_least) { self->pruned++; continue; }
        self->walked++;
        if (s.goal >= 0 && s.hp >= at_least) {
            set_t doors = set_and(s.consumed, g->door_mask), fought = set_andnot(s.consumed, g->door_mask);
            int same = 0;
            for (int i = lowest; i >= 0 && i < k->count && !same; i++)
                if (alive[i >> 6] >> (i & 63) & 1)
                    same = set_equal(doors, k->doors[i]) && set_within(k->fights[i], fought);
            if (!same) {
                if (walk_way(w, node, trail) < 0) goto done;
                *goal = s.goal;
                status = 1;
                goto done;
            }
        }
        CostTable *table = costs_at(g, s.atk, s.defense);
        if (!table) goto done;
        const int64_t *costs = table->costs;
        set_t moves = quiet >= 0 ? set_and(s.frontier, fresh) : s.frontier;
        FOR_EACH(b, moves, {
            State child;
            int64_t cost;
            if (!walk_step(g, &s, b, costs, &child, &cost)) continue;
            const uint64_t *of = (g->blockers[b].is_door ? k->door_of : k->fight_of) + (size_t)b * (size_t)words;
            int any = 0;
            for (int x = 0; x < words; x++) {
                uint64_t keep;
                if (g->blockers[b].is_door) keep = alive[x] & of[x];
                else if (cost == 0) keep = alive[x] & ~of[x];
                else {
                    keep = 0;
                    uint64_t rest = alive[x] & of[x];
                    while (rest) {
                        int i = x * 64 + __builtin_ctzll(rest);
                        rest &= rest - 1;
                        size_t at = (size_t)i * (size_t)(k->blockers + 1) + (size_t)b;
                        if (k->atk[at] == s.atk && k->defense[at] == s.defense) keep |= (uint64_t)1 << (i & 63);
                    }
                }
                still[x] = keep;
                any |= keep != 0;
            }
            if (any) {
                int same = 1;
                for (int x = 0; x < words && same; x++) same = still[x] == alive[x];
                if (walk_push(w, &child, node, b, still, words, &s, same) < 0) goto done;
                continue;
            }
            /* A deviation: into the search's key table, unless a state as good is there already. */
            const Best *known = NULL;
            StepEntry *slot = steps_slot(&S->steps, child.consumed);
            if (slot->key_id >= 0) {
                known = &S->keys.entries[slot->key_id].best;
                if (known->record >= 0 && known->hp >= child.hp - child.elixirs + known->elixirs) continue;
            }
            State root_state = child;
            root_state.frontier = set_and(root_state.frontier, S->g.allowed);
            if (close_state(&S->g, &root_state, NULL) < 0) goto done;
            Key rk = key_of(&S->g, &root_state);
            int32_t root_key = keys_find(&S->keys, &rk, 1);
            if (root_key < 0 || steps_store(&S->steps, steps_slot(&S->steps, child.consumed), child.consumed, root_key) < 0)
                goto done;
            if (w->deviations_count >= INT32_MAX - 2) { no_memory(); goto done; }
            if (grow((void **)&w->deviations, &w->deviations_capacity, w->deviations_count + 1, sizeof(Deviation)) < 0)
                goto done;
            int64_t before = S->records_count;
            if (add_root(S, &root_state, -2 - (int32_t)w->deviations_count, o) < 0) goto done;
            if (S->records_count > before) {
                w->deviations[w->deviations_count++] = (Deviation){node, (int16_t)b};
                self->deviations++;
            }
        })
        if (w->deviations_count >= next_search) {
            next_search = 2 * w->deviations_count;
            status = search_deviations(self, w, root, deadline, o, trail, goal);
            if (status != 0) goto done;
            status = -1;
        }
    }
    status = search_deviations(self, w, root, deadline, o, trail, goal);
done:
    free(alive);
    free(still);
    return status;
}

/* A search's tables emptied for a new question; its graph and cost tables are kept. -1 on error. */
static int reset_tables(Search *S) {
    free(S->records);
    S->records = NULL;
    S->records_count = S->records_capacity = 0;
    free(S->keys.slots);
    free(S->keys.entries);
    memset(&S->keys, 0, sizeof(KeyTable));
    free(S->steps.slots);
    memset(&S->steps, 0, sizeof(StepTable));
    queue_free(&S->queue);
    free(S->undo);
    S->undo = NULL;
    S->undo_count = S->undo_capacity = 0;
    S->undo_active = 0;
    return keys_init(&S->keys) < 0 || steps_init(&S->steps) < 0 || queue_init(&S->queue) < 0 ? -1 : 0;
}

static int Walker_init(Walker *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *walk_spec, *search_spec;
    int priced = 0, steiner = 0;
    long long dive_budget = 0;
    if (!PyArg_ParseTuple(args, "OO|ppL", &walk_spec, &search_spec, &priced, &steiner, &dive_budget)) return -1;
    if (dive_budget < 0) { PyErr_SetString(PyExc_ValueError, "the dive's budget must not be negative"); return -1; }
    self->dive_budget = dive_budget;
    self->priced = priced;
    self->steiner = steiner;
    if (self->ready) { PyErr_SetString(PyExc_RuntimeError, "a Walker is made once"); return -1; }
    if (init_search(&self->W, walk_spec) < 0 || init_search(&self->S, search_spec) < 0
            || init_search(&self->D, search_spec) < 0)
        return -1;
    if (self->W.g.blockers_count != self->S.g.blockers_count || self->W.g.areas_count != self->S.g.areas_count) {
        PyErr_SetString(PyExc_ValueError, "the walk's and the search's graphs must be of one level");
        return -1;
    }
    if (!set_empty(self->W.g.ending) || !set_empty(self->W.g.purchases) || self->W.g.fields != 1) {
        PyErr_SetString(PyExc_ValueError, "the counting walk holds levels without bosses, shops or key colours");
        return -1;
    }
    self->specs = PyTuple_Pack(2, walk_spec, search_spec);
    if (!self->specs) return -1;
    self->ready = 1;
    return 0;
}

static void Walker_dealloc(Walker *self) {
    free_search(&self->W);
    free_search(&self->S);
    free_search(&self->D);
    Py_XDECREF(self->specs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The winning route of the search after the walk: the way to the deviation it starts from, the deviation's
   blocker, the closure of the deviated position and the search's steps from there. Runs without the GIL. */
static int deviation_route(Walker *self, Search *S, const WalkSpace *w, const State *root, int32_t best,
                           Trail *trail) {
    int32_t first = best;
    while (S->records[first].parent >= 0) first = S->records[first].parent;
    int64_t index = -2 - (int64_t)S->records[first].parent;
    if (index < 0 || index >= w->deviations_count) {
        PyGILState_STATE gil = PyGILState_Ensure();
        PyErr_SetString(PyExc_SystemError, "the counting walk lost the deviation of its route");
        PyGILState_Release(gil);
        return -1;
    }
    Deviation d = w->deviations[index];
    if (walk_way(w, d.node, trail) < 0 || (d.step >= 0 && trail_add(trail, d.step) < 0)) return -1;
    State s = *root;
    for (int64_t i = 0; i < trail->count; i++) {
        int b = trail->items[i];
        CostTable *table = costs_at(&self->W.g, s.atk, s.defense);
        if (!table) return -1;
        s.hp -= self->W.g.blockers[b].is_door ? 0 : table->costs[b];
        take_blocker(&self->W.g, &s, b);
    }
    s.frontier = set_and(s.frontier, S->g.allowed);
    if (close_state(&S->g, &s, trail) < 0) return -1;
    return route_steps(S, &s, best, trail);
}

/* The first-win search from the deviations queued (add_root): 1 with the route of its win in `trail` and
   the goal in *goal, 0 when none wins (what it stored stays, as failures), 2 when time ran out, -1 on
   error. Runs without the GIL. */
static int search_deviations(Walker *self, const WalkSpace *w, const State *root, PyObject *deadline, Options o,
                             Trail *trail, int *goal) {
    Search *S = &self->S;
    Outcome out;
    if (self->dive_budget && !self->dived) {
        /* First a dive from every deviation queued, deepest first, for at most dive_budget expansions (a
           count: the answer must not depend on the machine): where some deviation wins, it finds a win in a
           few expansions where the best-first search, which must first rule out every state whose bound
           is higher, may take hundreds of thousands. What the dive stores proves nothing (it stopped
           early), so it has tables of its own. */
        self->dived = 1;
        Search *D = &self->D;
        if (reset_tables(D) < 0) return -1;
        Options dive = o;
        dive.dive = 1;
        dive.priced = dive.steiner = 0;
        dive.chain_from = -1;
        dive.max_expanded = self->dive_budget;
        for (int64_t r = 0; r < S->records_count; r++) {
            const State *root_state = &S->records[r];
            if (root_state->parent <= -2 && S->keys.entries[root_state->key_id].best.record == r
                    && add_root(D, root_state, root_state->parent, dive) < 0)
                return -1;
        }
        int status = run_queue(D, deadline, dive, &out);
        self->expanded += out.expanded;
        if (status < 0) return -1;
        if (out.have_best) {
            *goal = D->records[out.best_record].goal;
            return deviation_route(self, D, w, root, out.best_record, trail) < 0 ? -1 : 1;
        }
        int over = out.complete ? 0 : expired(deadline);
        if (over) return over < 0 ? -1 : 2;
        if (out.complete) return 0;     /* the dive went through every state: none wins */
    }
    int status = run_queue(S, deadline, o, &out);
    self->expanded += out.expanded;
    if (status < 0) return -1;
    if (!out.complete) return 2;
    if (!out.have_best) return 0;
    *goal = S->records[out.best_record].goal;
    return deviation_route(self, S, w, root, out.best_record, trail) < 0 ? -1 : 1;
}

/* another(root, known, at_least, deadline) -> (complete, steps, goal): a winning route (at least `at_least`
   hp) from `root` (the level's start as reached, read_state, not closed) whose signature is none of
   `known` (a list of (doors, fights, ((blocker, atk, def), ...)), masks as set bytes): steps = every
   blocker it consumes from root, goal = the goal it reaches; steps and goal None when there is none
   (complete) or time ran out (not complete). */
static PyObject *Walker_another(Walker *self, PyObject *args) {
    PyObject *root_spec, *known_list, *deadline;
    long long at_least;
    if (!self->ready) { PyErr_SetString(PyExc_RuntimeError, "the Walker was not made"); return NULL; }
    if (!PyArg_ParseTuple(args, "OO!LO", &root_spec, &PyList_Type, &known_list, &at_least, &deadline)) return NULL;
    KnownSet k;
    State root;
    if (read_state(&self->W.g, root_spec, &root, 0, NULL) < 0) return NULL;
    if (read_known(known_list, self->W.g.blockers_count, &k) < 0) return NULL;
    if (reset_tables(&self->S) < 0) { known_free(&k); return NULL; }
    Search *S = &self->S;
    WalkSpace w;
    memset(&w, 0, sizeof(w));
    Trail trail = {NULL, 0, 0};
    Options o = {.first_win = 1, .dive = 0, .use_dominance = 1, .priced = self->priced, .steiner = self->steiner,
                 .chain_from = self->steiner ? 0 : -1, .at_least = at_least, .threads = 1};
    self->walked = self->deviations = self->expanded = self->pruned = 0;
    self->dived = 0;
    int goal = -1, status;
    PyThreadState *unlocked = PyEval_SaveThread();
    if (k.count == 0) {
        /* Nothing known: the start itself has deviated. */
        State start = root;
        start.frontier = set_and(start.frontier, S->g.allowed);
        status = grow((void **)&w.deviations, &w.deviations_capacity, 1, sizeof(Deviation));
        if (status == 0) {
            w.deviations[w.deviations_count++] = (Deviation){-1, -1};
            self->deviations = 1;
            status = close_state(&S->g, &start, NULL) < 0 || add_root(S, &start, -2, o) < 0 ? -1 : 0;
        }
    } else {
        status = walk_classes(self, &w, &root, &k, at_least, deadline, o, &trail, &goal);
    }
    if (status == 0 && k.count == 0) status = search_deviations(self, &w, &root, deadline, o, &trail, &goal);
    PyEval_RestoreThread(unlocked);
    PyObject *result = NULL;
    if (status == 0 || status == 2) {
        result = Py_BuildValue("(OOO)", status == 0 ? Py_True : Py_False, Py_None, Py_None);
    } else if (status == 1) {
        PyObject *steps = PyList_New((Py_ssize_t)trail.count);
        if (steps) {
            for (int64_t i = 0; i < trail.count; i++)
                PyList_SET_ITEM(steps, (Py_ssize_t)i, PyLong_FromLong(trail.items[i]));
            if (PyErr_Occurred()) Py_CLEAR(steps);
        }
        if (steps) result = Py_BuildValue("(ONi)", Py_True, steps, goal);
    }
    free(trail.items);
    walk_space_free(&w);
    known_free(&k);
    /* The search's tables go back now: a question can fill gigabytes, and the next starts afresh anyway. */
    if (reset_tables(S) < 0 && result) Py_CLEAR(result);
    return result;
}

static PyObject *Walker_counts(Walker *self, PyObject *args) {
    (void)args;
    return Py_BuildValue("(LLLL)", (long long)self->walked, (long long)self->deviations, (long long)self->expanded,
                         (long long)self->pruned);
}

static PyMethodDef Walker_methods[] = {
    {"another", (PyCFunction)Walker_another, METH_VARARGS,
     "another(root, known, at_least, deadline) -> (complete, steps, goal): a winning route of a new signature."},
    {"counts", (PyCFunction)Walker_counts, METH_NOARGS,
     "counts() -> (classes walked, deviations queued, states expanded, classes cut by the bound) of the last "
     "question."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WalkerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twisty.solver._passages_core.Walker",
    .tp_doc = "Walker(walk_graph, search_graph): the counting engine's walks over consistent prefixes of one level.",
    .tp_basicsize = sizeof(Walker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Walker_init,
    .tp_dealloc = (destructor)Walker_dealloc,
    .tp_methods = Walker_methods,
};

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(graph, root, deadline, first_win, dive, use_dominance, at_least, priced, steiner, chain_from, threads=1)\n"
     "-> (best_hp, complete, expanded, steps, goal)\n\n"
     "The passages search engine's best-first search (header comment of _passages_core.c)."},
    {"first_win_any", first_win_any, METH_VARARGS,
     "first_win_any(graph, roots, deadline, at_least) -> (index, complete, expanded, steps, goal)\n\n"
     "One first-win search from every state of `roots` at once (the counting engine's deviations)."},
    {"least_need", least_need, METH_VARARGS,
     "least_need(graph, root, deadline, known, steiner) -> (least need or None, expanded, steps, goal)\n\n"
     "The least-need search of min_start_hp (need_offer, least_need in _passages_core.c)."},
    {"bound", bound_py, METH_VARARGS,
     "bound(graph, state, which, floor=NO_WIN, enough=None) -> one of the search's bounds at a state (for tests)"},
    {"follow", follow_py, METH_VARARGS,
     "follow(graph, state, steps, close) -> the states after each step, by the core's own step (for tests)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "_passages_core", .m_doc = NULL, .m_size = -1,
                                    .m_methods = methods};

PyMODINIT_FUNC PyInit__passages_core(void) {
    if (PyType_Ready(&DeciderType) < 0 || PyType_Ready(&WalkerType) < 0) return NULL;
    PyObject *made = PyModule_Create(&module);
    if (!made) return NULL;
    Py_INCREF(&DeciderType);
    if (PyModule_AddObject(made, "Decider", (PyObject *)&DeciderType) < 0) {
        Py_DECREF(&DeciderType);
        Py_DECREF(made);
        return NULL;
    }
    Py_INCREF(&WalkerType);
    if (PyModule_AddObject(made, "Walker", (PyObject *)&WalkerType) < 0) {
        Py_DECREF(&WalkerType);
        Py_DECREF(made);
        return NULL;
    }
    return made;
}
