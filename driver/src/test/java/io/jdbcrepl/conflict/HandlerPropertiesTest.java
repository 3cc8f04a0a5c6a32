package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.handler;
import static io.jdbcrepl.conflict.Fixtures.row;
import static io.jdbcrepl.conflict.Fixtures.v;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.conflict.Resolution.Action;
import io.jdbcrepl.conflict.Resolution.HandlerOutcome;
import io.jdbcrepl.conflict.Resolution.Outcome;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** SPEC 5.3's arithmetic and routing over random rows and LCRs. */
class HandlerPropertiesTest {

    private static final TableSettings T = TableSettings.of("hr", "t", List.of("id"));
    private static final List<String> COLUMNS = List.of("a", "b", "c", "d", "e");

    private static MemoryNode node(String name, List<HandlerDefinition> handlers, RowImage base) {
        MemoryNode n = new MemoryNode(name, T, handlers);
        n.load(base);
        return n;
    }

    private static RowImage base(long a, long b, long r) {
        return row("id", 1, "a", a, "b", b, "r", r);
    }

    /** Both nodes change the row, then each applies the other's LCR. */
    private static void exchange(MemoryNode n1, RowImage set1, MemoryNode n2, RowImage set2) {
        RowLcr l1 = n1.update(1, set1);
        RowLcr l2 = n2.update(1, set2);
        n2.receive(l1);
        n1.receive(l2);
    }

    private static boolean same(RowImage x, RowImage y) {
        if (!x.asMap().keySet().equals(y.asMap().keySet())) return false;
        return x.asMap().keySet().stream().allMatch(c -> ValueComparison.same(x.get(c), y.get(c)));
    }

    @Property
    void maximumAndMinimumConvergeWhenResolutionValuesDiffer(@ForAll @IntRange(max = 100) int r0,
            @ForAll @IntRange(max = 100) int r1, @ForAll @IntRange(max = 100) int r2, @ForAll int a1, @ForAll int a2,
            @ForAll boolean maximum) {
        Assume.that(r1 != r2 && r1 != r0 && r2 != r0);
        HandlerType type = maximum ? HandlerType.MAXIMUM : HandlerType.MINIMUM;
        List<HandlerDefinition> hs = List.of(handler("m", type, "a,r", "r"));
        MemoryNode n1 = node("n1", hs, base(0, 0, r0));
        MemoryNode n2 = node("n2", hs, base(0, 0, r0));
        exchange(n1, row("a", a1, "r", r1), n2, row("a", a2, "r", r2));
        assertThat(same(n1.row(1), n2.row(1))).as(n1.row(1) + " vs " + n2.row(1)).isTrue();
        boolean firstWins = maximum ? r1 > r2 : r1 < r2;
        assertThat(n1.row(1).get("a")).isEqualTo(v((long) (firstWins ? a1 : a2)));
        assertThat(n1.errorQueue).isEmpty();
        assertThat(n2.errorQueue).isEmpty();
    }

    @Property
    void equalResolutionValuesNeverResolve(@ForAll @IntRange(max = 100) int r, @ForAll int a1, @ForAll int a2) {
        Assume.that(a1 != a2);
        List<HandlerDefinition> hs = List.of(handler("m", HandlerType.MAXIMUM, "a,r", "r"));
        MemoryNode n1 = node("n1", hs, base(0, 0, r == 0 ? 1 : 0));
        MemoryNode n2 = node("n2", hs, base(0, 0, r == 0 ? 1 : 0));
        exchange(n1, row("a", a1, "r", r), n2, row("a", a2, "r", r));
        assertThat(n1.errorQueue).hasSize(1);
        assertThat(n2.errorQueue).hasSize(1);
        assertThat(n1.row(1).get("a")).isEqualTo(v((long) a1));
    }

    @Property
    void deltaConvergesToBasePlusBothDeltas(@ForAll @IntRange(min = -1_000_000, max = 1_000_000) int base,
            @ForAll @IntRange(min = -1000, max = 1000) int d1, @ForAll @IntRange(min = -1000, max = 1000) int d2) {
        Assume.that(d1 != 0 && d2 != 0);
        List<HandlerDefinition> hs = List.of(handler("d", HandlerType.DELTA, "a", null));
        MemoryNode n1 = node("n1", hs, base(base, 0, 0));
        MemoryNode n2 = node("n2", hs, base(base, 0, 0));
        exchange(n1, row("a", (long) base + d1), n2, row("a", (long) base + d2));
        assertThat(n1.row(1).get("a")).isEqualTo(v((long) base + d1 + d2));
        assertThat(n2.row(1).get("a")).isEqualTo(v((long) base + d1 + d2));
    }

    @Property
    void overwriteAndIgnoreSwapOrKeep(@ForAll int a1, @ForAll int a2) {
        Assume.that(a1 != a2 && a1 != 0 && a2 != 0);
        MemoryNode n1 = node("n1", List.of(handler("o", HandlerType.OVERWRITE, "a", null)), base(0, 0, 0));
        MemoryNode n2 = node("n2", List.of(handler("o", HandlerType.OVERWRITE, "a", null)), base(0, 0, 0));
        exchange(n1, row("a", a1), n2, row("a", a2));
        assertThat(n1.row(1).get("a")).isEqualTo(v((long) a2));
        assertThat(n2.row(1).get("a")).isEqualTo(v((long) a1));
        MemoryNode i1 = node("n1", List.of(handler("i", HandlerType.IGNORE, "a", null)), base(0, 0, 0));
        MemoryNode i2 = node("n2", List.of(handler("i", HandlerType.IGNORE, "a", null)), base(0, 0, 0));
        exchange(i1, row("a", a1), i2, row("a", a2));
        assertThat(i1.row(1).get("a")).isEqualTo(v((long) a1));
        assertThat(i2.row(1).get("a")).isEqualTo(v((long) a2));
    }

    // ---- routing

    /** A random table state: handlers on disjoint lists (maybe a * list), a current row and an LCR. */
    record Case(List<HandlerDefinition> handlers, RowImage current, RowLcr lcr) {}

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<List<Integer>> listOf = Arbitraries.integers().between(0, 3).list().ofSize(COLUMNS.size());
        Arbitrary<List<HandlerType>> types = Arbitraries.of(HandlerType.values()).list().ofSize(4);
        Arbitrary<List<Integer>> values = Arbitraries.integers().between(0, 2).list().ofSize(COLUMNS.size() * 3);
        Arbitrary<List<Boolean>> present = Arbitraries.of(true, false).list().ofSize(COLUMNS.size() * 2);
        return Combinators.combine(listOf, types, values, present, Arbitraries.of(true, false)).as(
                (lists, ts, vs, ps, withStar) -> {
                    // list 0 is "no list" (or * when withStar), 1..3 named lists
                    List<HandlerDefinition> hs = new ArrayList<>();
                    for (int l = 1; l <= 3; l++) {
                        List<String> cols = new ArrayList<>();
                        for (int i = 0; i < COLUMNS.size(); i++) if (lists.get(i) == l) cols.add(COLUMNS.get(i));
                        if (!cols.isEmpty()) hs.add(handler("h" + l, ts.get(l), String.join(",", cols),
                                ts.get(l).needsResolution() ? cols.get(0) : null));
                    }
                    if (withStar) {
                        HandlerType t = ts.get(0);
                        // a * MAXIMUM/MINIMUM needs a resolution column in no named list
                        String res = null;
                        if (t.needsResolution()) {
                            for (int i = 0; i < COLUMNS.size(); i++) if (lists.get(i) == 0) res = COLUMNS.get(i);
                            if (res == null) t = HandlerType.OVERWRITE;
                        }
                        hs.add(handler("star", t, "*", res));
                    }
                    RowImage current = row("id", 1);
                    RowImage old = row("id", 1);
                    RowImage nw = new RowImage();
                    for (int i = 0; i < COLUMNS.size(); i++) {
                        String c = COLUMNS.get(i);
                        current.put(c, v(vs.get(3 * i)));
                        if (ps.get(2 * i)) old.put(c, v(vs.get(3 * i + 1)));
                        if (ps.get(2 * i + 1)) nw.put(c, v(vs.get(3 * i + 2)));
                    }
                    return new Case(hs, current, Fixtures.update(old, nw));
                });
    }

    private static Optional<HandlerDefinition> listOf(List<HandlerDefinition> hs, String column) {
        Optional<HandlerDefinition> named = hs.stream()
                .filter(h -> !h.columns().star() && h.columns().columns().contains(column)).findFirst();
        return named.isPresent() ? named : hs.stream().filter(h -> h.columns().star()).findFirst();
    }

    @Property(tries = 2000)
    void routingNeverReachesOutsideAList(@ForAll("cases") Case k) {
        Optional<Conflict> conflict = ConflictDetector.detect(k.lcr(), k.current(), T);
        Assume.that(conflict.isPresent());
        Resolution r = new ConflictResolver(T, k.handlers()).resolve(k.lcr(), conflict.get());
        Set<String> conflicting = Set.copyOf(conflict.get().columns());
        // each handler was called only for conflicting columns of its own list
        for (HandlerOutcome o : r.outcomes()) {
            for (String c : o.columns()) {
                assertThat(conflicting).contains(c);
                Optional<HandlerDefinition> owner = listOf(k.handlers(), c);
                if (o.outcome() == Outcome.NO_HANDLER) {
                    assertThat(owner).isEmpty();
                } else {
                    assertThat(owner.map(HandlerDefinition::name)).contains(o.handler());
                }
            }
        }
        boolean unlisted = conflicting.stream().anyMatch(c -> listOf(k.handlers(), c).isEmpty());
        if (unlisted) {
            // a conflicting column in no list: always unresolved, no handler called
            assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
            assertThat(r.handlersTried()).isEmpty();
            return;
        }
        if (r.action() != Action.UPDATE) return;
        // every value written: from a list whose handler took the LCR's values (or DELTA), or a
        // column of no conflicting list taken from the LCR's new values
        Set<String> called = Set.copyOf(r.handlersTried());
        for (var e : r.values().asMap().entrySet()) {
            String c = e.getKey();
            Optional<HandlerDefinition> owner = listOf(k.handlers(), c);
            if (owner.isPresent() && called.contains(owner.get().name())) {
                HandlerOutcome o = r.outcomes().stream().filter(x -> owner.get().name().equals(x.handler()))
                        .findFirst().orElseThrow();
                assertThat(o.outcome()).as(c + " written by " + o).isIn(Outcome.LCR_APPLIED, Outcome.DELTA_APPLIED);
                if (o.outcome() == Outcome.LCR_APPLIED) assertThat(e.getValue()).isEqualTo(k.lcr().value(c));
            } else {
                assertThat(e.getValue()).isEqualTo(k.lcr().newValues().get(c));
            }
            TypedValue now = k.current().get(c);
            assertThat(ValueComparison.same(now, e.getValue())).as("only changes are written").isFalse();
        }
    }

    @Property
    void aConflictInAColumnOfNoListIsAlwaysUnresolved(@ForAll("cases") Case k,
            @ForAll @IntRange(min = 0, max = 4) int column) {
        String c = COLUMNS.get(column);
        List<HandlerDefinition> named = k.handlers().stream()
                .filter(h -> !h.columns().star() && !h.columns().columns().contains(c)).toList();
        RowImage old = new RowImage(k.lcr().oldValues().asMap());
        old.put(c, v(k.current().get(c).value().equals(7L) ? 8 : 7)); // surely differs
        RowLcr lcr = Fixtures.update(old, k.lcr().newValues());
        Conflict conflict = ConflictDetector.detect(lcr, k.current(), T).orElseThrow();
        assertThat(conflict.columns()).contains(c);
        Resolution r = new ConflictResolver(T, named).resolve(lcr, conflict);
        assertThat(r.action()).isEqualTo(Action.UNRESOLVED);
        assertThat(r.reason()).contains(c);
    }
}
