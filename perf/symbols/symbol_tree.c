/*
 * symbol_tree: insertion with the recoloring and rotations of Linux's
 * __rb_insert, erasure with __rb_erase_augmented (no augmentation) and
 * ____rb_erase_color, over parallel arrays. The cases are numbered as in
 * lib/rbtree.c so the two can be read side by side.
 */
#include "perf/symbols/symbol_tree.h"

#include <stdlib.h>
#include <string.h>

void symbol_tree_init(struct symbol_tree *t)
{
    memset(t, 0, sizeof(*t));
    t->root = TREE_NIL;
}

void symbol_tree_free(struct symbol_tree *t)
{
    free(t->key);
    free(t->parent);
    free(t->left);
    free(t->right);
    free(t->black);
    symbol_tree_init(t);
}

static int grow(void **p, size_t n, size_t size)
{
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

int symbol_tree_reserve(struct symbol_tree *t, size_t n)
{
    if (n <= t->capacity)
        return 0;
    size_t cap = t->capacity ? t->capacity : 1024;
    while (cap < n)
        cap *= 2;
    if (grow((void **)&t->key, cap, sizeof(*t->key)) ||
        grow((void **)&t->parent, cap, sizeof(*t->parent)) ||
        grow((void **)&t->left, cap, sizeof(*t->left)) ||
        grow((void **)&t->right, cap, sizeof(*t->right)) ||
        grow((void **)&t->black, cap, sizeof(*t->black)))
        return -1;
    t->capacity = cap;
    return 0;
}

static bool is_red(const struct symbol_tree *t, uint32_t n)
{
    return n != TREE_NIL && !t->black[n];
}

static bool is_black(const struct symbol_tree *t, uint32_t n)
{
    return n == TREE_NIL || t->black[n];
}

static void set_parent(struct symbol_tree *t, uint32_t n, uint32_t parent)
{
    if (n != TREE_NIL)
        t->parent[n] = parent;
}

static void set_parent_black(struct symbol_tree *t, uint32_t n, uint32_t parent, bool black)
{
    t->parent[n] = parent;
    t->black[n] = black;
}

/* __rb_change_child: parent's link to old now points to new. */
static void change_child(struct symbol_tree *t, uint32_t old, uint32_t new_, uint32_t parent)
{
    if (parent == TREE_NIL)
        t->root = new_;
    else if (t->left[parent] == old)
        t->left[parent] = new_;
    else
        t->right[parent] = new_;
}

/* __rb_rotate_set_parents: new takes old's place and color; old goes under new. */
static void rotate_set_parents(struct symbol_tree *t, uint32_t old, uint32_t new_, bool black)
{
    uint32_t parent = t->parent[old];
    t->parent[new_] = parent;
    t->black[new_] = t->black[old];
    set_parent_black(t, old, new_, black);
    change_child(t, old, new_, parent);
}

/* One side of __rb_insert's loop; `left` says parent is gparent's left child. */
static bool insert_step(struct symbol_tree *t, uint32_t *node, uint32_t *parent, bool left)
{
    uint32_t *near_ = left ? t->left : t->right, *far_ = left ? t->right : t->left;
    uint32_t gparent = t->parent[*parent];
    uint32_t uncle = far_[gparent];
    if (is_red(t, uncle)) { /* Case 1: color flips, then go on at gparent */
        set_parent_black(t, uncle, gparent, true);
        set_parent_black(t, *parent, gparent, true);
        *node = gparent;
        *parent = t->parent[gparent];
        set_parent_black(t, *node, *parent, false);
        return true;
    }
    uint32_t tmp = far_[*parent];
    if (*node == tmp) { /* Case 2: rotate at parent */
        tmp = near_[*node];
        far_[*parent] = tmp;
        near_[*node] = *parent;
        if (tmp != TREE_NIL)
            set_parent_black(t, tmp, *parent, true);
        set_parent_black(t, *parent, *node, false);
        *parent = *node;
        tmp = far_[*node];
    }
    /* Case 3: rotate at gparent */
    near_[gparent] = tmp;
    far_[*parent] = gparent;
    if (tmp != TREE_NIL)
        set_parent_black(t, tmp, gparent, true);
    rotate_set_parents(t, gparent, *parent, false);
    return false;
}

static void insert_color(struct symbol_tree *t, uint32_t node)
{
    uint32_t parent = t->parent[node];
    for (;;) {
        if (parent == TREE_NIL) {
            set_parent_black(t, node, TREE_NIL, true);
            return;
        }
        if (t->black[parent])
            return;
        uint32_t gparent = t->parent[parent];
        if (!insert_step(t, &node, &parent, t->right[gparent] != parent))
            return;
    }
}

void symbol_tree_insert(struct symbol_tree *t, uint32_t node, uint64_t key)
{
    uint32_t parent = TREE_NIL, *link = &t->root;
    while (*link != TREE_NIL) {
        parent = *link;
        link = key < t->key[parent] ? &t->left[parent] : &t->right[parent];
    }
    t->key[node] = key;
    t->parent[node] = parent;
    t->black[node] = false;
    t->left[node] = t->right[node] = TREE_NIL;
    *link = node;
    insert_color(t, node);
}

/* __rb_erase_augmented: unlinks node; returns where rebalancing starts, or TREE_NIL. */
static uint32_t erase_node(struct symbol_tree *t, uint32_t node)
{
    uint32_t child = t->right[node], tmp = t->left[node];
    if (tmp == TREE_NIL || child == TREE_NIL) { /* Case 1: at most one child */
        uint32_t only = tmp == TREE_NIL ? child : tmp;
        uint32_t parent = t->parent[node];
        bool was_black = t->black[node];
        change_child(t, node, only, parent);
        if (only != TREE_NIL) {
            t->parent[only] = parent;
            t->black[only] = was_black;
            return TREE_NIL;
        }
        return was_black ? parent : TREE_NIL;
    }
    uint32_t successor = child, parent, child2;
    tmp = t->left[child];
    if (tmp == TREE_NIL) { /* Case 2: the successor is node's right child */
        parent = successor;
        child2 = t->right[successor];
    } else { /* Case 3: the successor is leftmost under the right child */
        do {
            parent = successor;
            successor = tmp;
            tmp = t->left[tmp];
        } while (tmp != TREE_NIL);
        child2 = t->right[successor];
        t->left[parent] = child2;
        t->right[successor] = child;
        t->parent[child] = successor;
    }
    tmp = t->left[node];
    t->left[successor] = tmp;
    t->parent[tmp] = successor;
    uint32_t node_parent = t->parent[node];
    change_child(t, node, successor, node_parent);
    uint32_t rebalance = TREE_NIL;
    if (child2 != TREE_NIL)
        set_parent_black(t, child2, parent, true);
    else if (t->black[successor])
        rebalance = parent;
    t->parent[successor] = node_parent;
    t->black[successor] = t->black[node];
    return rebalance;
}

/*
 * One side of ____rb_erase_color's loop (`left`: node is parent's left
 * child). Returns true to go on one level up (*node, *parent updated).
 */
static bool erase_step(struct symbol_tree *t, uint32_t *node, uint32_t *parent, bool left)
{
    uint32_t *near_ = left ? t->left : t->right, *far_ = left ? t->right : t->left;
    uint32_t sibling = far_[*parent], tmp1, tmp2;
    if (is_red(t, sibling)) { /* Case 1: rotate at parent */
        tmp1 = near_[sibling];
        far_[*parent] = tmp1;
        near_[sibling] = *parent;
        set_parent_black(t, tmp1, *parent, true);
        rotate_set_parents(t, *parent, sibling, false);
        sibling = tmp1;
    }
    tmp1 = far_[sibling];
    if (is_black(t, tmp1)) {
        tmp2 = near_[sibling];
        if (is_black(t, tmp2)) { /* Case 2: sibling color flip */
            set_parent_black(t, sibling, *parent, false);
            if (is_red(t, *parent)) {
                t->black[*parent] = true;
                return false;
            }
            *node = *parent;
            *parent = t->parent[*node];
            return *parent != TREE_NIL;
        }
        /* Case 3: rotate at sibling */
        tmp1 = far_[tmp2];
        near_[sibling] = tmp1;
        far_[tmp2] = sibling;
        far_[*parent] = tmp2;
        if (tmp1 != TREE_NIL)
            set_parent_black(t, tmp1, sibling, true);
        tmp1 = sibling;
        sibling = tmp2;
    }
    /* Case 4: rotate at parent and recolor */
    tmp2 = near_[sibling];
    far_[*parent] = tmp2;
    near_[sibling] = *parent;
    set_parent_black(t, tmp1, sibling, true);
    set_parent(t, tmp2, *parent);
    rotate_set_parents(t, *parent, sibling, true);
    return false;
}

void symbol_tree_erase(struct symbol_tree *t, uint32_t node)
{
    uint32_t parent = erase_node(t, node), child = TREE_NIL;
    while (parent != TREE_NIL && erase_step(t, &child, &parent, t->right[parent] != child))
        ;
}

size_t symbol_tree_in_order(const struct symbol_tree *t, uint32_t *out)
{
    size_t n = 0;
    uint32_t node = t->root;
    if (node == TREE_NIL)
        return 0;
    while (t->left[node] != TREE_NIL)
        node = t->left[node];
    while (node != TREE_NIL) {
        out[n++] = node;
        if (t->right[node] != TREE_NIL) { /* rb_next: leftmost of the right subtree */
            node = t->right[node];
            while (t->left[node] != TREE_NIL)
                node = t->left[node];
            continue;
        }
        uint32_t child = node; /* else: up until we come from a left child */
        node = t->parent[node];
        while (node != TREE_NIL && t->right[node] == child) {
            child = node;
            node = t->parent[node];
        }
    }
    return n;
}
