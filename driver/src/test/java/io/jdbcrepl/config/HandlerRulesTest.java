package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import static io.jdbcrepl.config.Configs.fails;
import static io.jdbcrepl.config.Configs.load;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC 5.3 and 5.4, the rules that need no database. */
class HandlerRulesTest {

    /** SPEC 5.3's table, written out here rather than taken from the code under test. */
    private static final Map<String, Set<String>> VALID = Map.of(
            "INSERT/ROW_EXISTS", Set.of("RECORD", "IGNORE", "DISCARD", "OVERWRITE", "MAXIMUM", "MINIMUM"),
            "UPDATE/ROW_EXISTS", Set.of("RECORD", "IGNORE", "DISCARD", "OVERWRITE", "MAXIMUM", "MINIMUM", "DELTA"),
            "UPDATE/ROW_MISSING", Set.of("RECORD", "IGNORE", "DISCARD", "OVERWRITE"),
            "DELETE/ROW_EXISTS", Set.of("RECORD", "IGNORE", "DISCARD", "OVERWRITE"),
            "DELETE/ROW_MISSING", Set.of("RECORD", "IGNORE", "DISCARD"));

    static Stream<Arguments> everyCombination() {
        List<Arguments> out = new ArrayList<>();
        for (String op : List.of("INSERT", "UPDATE", "DELETE")) {
            for (String conflict : List.of("ROW_EXISTS", "ROW_MISSING")) {
                for (HandlerType type : HandlerType.values()) {
                    out.add(Arguments.of(op, conflict, type.name()));
                }
            }
        }
        return out.stream();
    }

    private static String[] handler(String name, String... kv) {
        List<String> out = new ArrayList<>(List.of("repl.node", "n1"));
        for (int i = 0; i < kv.length; i += 2) {
            out.add("repl.handler." + name + "." + kv[i]);
            out.add(kv[i + 1]);
        }
        return out.toArray(new String[0]);
    }

    private static String[] concat(String[] a, String... b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0}/{1} {2}")
    @MethodSource("everyCombination")
    void everyOperationConflictTypeCombination(String op, String conflict, String type) throws Exception {
        boolean valid = VALID.getOrDefault(op + "/" + conflict, Set.of()).contains(type);
        boolean resolution = type.equals("MAXIMUM") || type.equals("MINIMUM");
        String[] kv = handler("h1", "table", "hr.employees", "type", type.toLowerCase(Locale.ROOT),
                "operation", op, "conflict", conflict);
        if (resolution) {
            kv = concat(kv, "repl.handler.h1.resolution", "time");
        }
        assertThat(HandlerType.allowedFor(DmlOperation.valueOf(op), ConflictType.valueOf(conflict)))
                .map(Enum::name).containsExactlyInAnyOrderElementsOf(VALID.getOrDefault(op + "/" + conflict, Set.of()));
        if (valid) {
            ReplConfig c = load(kv);
            assertThat(c.handlers()).containsExactly(new HandlerDefinition("h1", new TableName("hr", "employees"),
                    HandlerType.valueOf(type), ColumnSet.STAR, resolution ? "time" : null, DmlOperation.valueOf(op),
                    ConflictType.valueOf(conflict)));
        } else {
            SQLException e = fails("22023", kv);
            assertThat(e.getMessage()).contains("h1").contains(op).contains(conflict);
            if (!(op.equals("INSERT") && conflict.equals("ROW_MISSING"))) {
                assertThat(e.getMessage()).contains("repl.handler.h1.type=" + type);
            }
        }
    }

    @Test
    void insertRowMissingIsNeverValid() {
        for (HandlerType t : HandlerType.values()) {
            assertThat(HandlerType.allowedFor(DmlOperation.INSERT, ConflictType.ROW_MISSING)).doesNotContain(t);
        }
        assertThat(HandlerType.allowedFor(DmlOperation.LOB_UPDATE, ConflictType.ROW_EXISTS)).isEmpty();
        assertThat(HandlerType.allowedFor(DmlOperation.DEFAULT, ConflictType.ROW_EXISTS)).isEmpty();
        SQLException e = fails("22023", handler("h1", "table", "t", "type", "RECORD", "operation", "INSERT",
                "conflict", "ROW_MISSING"));
        assertThat(e.getMessage()).contains("repl.handler.h1.operation=INSERT")
                .contains("repl.handler.h1.conflict=ROW_MISSING");
    }

    @Test
    void defaultsAreUpdateRowExistsAndStar() throws Exception {
        HandlerDefinition h = load(handler("h", "table", "emp", "type", "OVERWRITE")).handlers().get(0);
        assertThat(h.operation()).isEqualTo(DmlOperation.UPDATE);
        assertThat(h.conflict()).isEqualTo(ConflictType.ROW_EXISTS);
        assertThat(h.columns()).isEqualTo(ColumnSet.STAR);
        assertThat(h.columns().star()).isTrue();
        assertThat(h.resolution()).isNull();
        assertThat(h.table()).isEqualTo(new TableName(null, "emp"));
    }

    @Test
    void tableAndTypeAreRequired() {
        SQLException e = fails("22023", handler("h7", "type", "OVERWRITE"));
        assertThat(e.getMessage()).contains("h7").contains("repl.handler.h7.table");
        e = fails("22023", handler("h7", "table", "emp", "columns", "a"));
        assertThat(e.getMessage()).contains("h7").contains("repl.handler.h7.type");
    }

    @Test
    void resolutionIsRequiredForMaximumAndMinimum() {
        for (String type : List.of("MAXIMUM", "MINIMUM")) {
            SQLException e = fails("22023", handler("h", "table", "emp", "type", type, "columns", "salary"));
            assertThat(e.getMessage()).contains("repl.handler.h.resolution").contains(type);
        }
    }

    @Test
    void resolutionMustBeOneOfTheListsColumns() throws Exception {
        SQLException e = fails("22023", handler("h", "table", "emp", "type", "MAXIMUM", "columns", "salary,bonus",
                "resolution", "time"));
        assertThat(e.getMessage()).contains("repl.handler.h.resolution=time").contains("salary,bonus");
        assertThat(load(handler("h", "table", "emp", "type", "MINIMUM", "columns", "salary,TIME",
                "resolution", "time")).handlers().get(0).resolution()).isEqualTo("time");
        // with * it can only be checked against the table, later
        assertThat(load(handler("h", "table", "emp", "type", "MAXIMUM", "resolution", "time")).handlers())
                .hasSize(1);
    }

    @Test
    void aStarListsResolutionColumnMustNotBeInAnotherList() throws Exception {
        String[] star = handler("m", "table", "emp", "type", "MAXIMUM", "resolution", "time");
        SQLException e = fails("22023", concat(star, "repl.handler.o.table", "emp", "repl.handler.o.type", "OVERWRITE",
                "repl.handler.o.columns", "salary,TIME"));
        assertThat(e.getMessage()).contains("repl.handler.m.resolution=time").contains("repl.handler.o.columns=salary,TIME")
                .contains("* list");
        // the named handler sorts first: the same check either way round
        e = fails("22023", concat(handler("z", "table", "emp", "type", "MINIMUM", "resolution", "time"),
                "repl.handler.a.table", "emp", "repl.handler.a.type", "IGNORE", "repl.handler.a.columns", "time"));
        assertThat(e.getMessage()).contains("repl.handler.z.resolution=time");
        // another operation's list may hold it
        assertThat(load(concat(star, "repl.handler.o.table", "emp", "repl.handler.o.type", "OVERWRITE",
                "repl.handler.o.columns", "time", "repl.handler.o.operation", "INSERT")).handlers()).hasSize(2);
    }

    @Test
    void unknownTypesAndOperationsAreBadValues() {
        for (String[] kv : List.of(new String[] {"type", "LATEST"}, new String[] {"operation", "LOB_UPDATE"},
                new String[] {"operation", "DEFAULT"}, new String[] {"conflict", "FOREIGN_KEY"})) {
            String[] keys = handler("h", "table", "emp", "type", "IGNORE");
            keys = concat(keys, "repl.handler.h." + kv[0], kv[1]);
            SQLException e = fails("22023", keys);
            assertThat(e.getMessage()).contains("repl.handler.h." + kv[0]).contains(kv[1]);
        }
    }

    @Test
    void resolutionOnlyForMaximumAndMinimum() {
        for (String type : List.of("RECORD", "IGNORE", "DISCARD", "OVERWRITE", "DELTA")) {
            SQLException e = fails("22023", handler("h", "table", "emp", "type", type, "columns", "a",
                    "resolution", "a"));
            assertThat(e.getMessage()).contains("repl.handler.h.resolution=a");
        }
    }

    @Test
    void rowMissingAndDeleteHandlersTakeOnlyStar() throws Exception {
        SQLException e = fails("22023", handler("h", "table", "emp", "type", "IGNORE", "conflict", "ROW_MISSING",
                "columns", "a,b"));
        assertThat(e.getMessage()).contains("repl.handler.h.columns=a,b").contains("*");
        e = fails("22023", handler("h", "table", "emp", "type", "OVERWRITE", "operation", "DELETE", "columns", "a"));
        assertThat(e.getMessage()).contains("repl.handler.h.columns=a");
        assertThat(load(handler("h", "table", "emp", "type", "DISCARD", "operation", "delete",
                "conflict", "row_missing", "columns", "*")).handlers()).hasSize(1);
    }

    @Test
    void aColumnIsInAtMostOneListPerTableOperationAndConflict() throws Exception {
        String[] a = handler("a", "table", "hr.emp", "type", "OVERWRITE", "columns", "salary,bonus");
        SQLException e = fails("22023", concat(a, "repl.handler.b.table", "HR.EMP", "repl.handler.b.type", "MAXIMUM",
                "repl.handler.b.columns", "time,SALARY", "repl.handler.b.resolution", "time"));
        assertThat(e.getMessage()).contains("handlers a and b").contains("salary").contains("repl.handler.b.columns");
        // another operation, conflict or table: fine
        assertThat(load(concat(a, "repl.handler.b.table", "hr.emp", "repl.handler.b.type", "IGNORE",
                "repl.handler.b.columns", "salary", "repl.handler.b.operation", "INSERT")).handlers()).hasSize(2);
        assertThat(load(concat(a, "repl.handler.b.table", "hr.emp", "repl.handler.b.type", "IGNORE",
                "repl.handler.b.conflict", "ROW_MISSING")).handlers()).hasSize(2);
        assertThat(load(concat(a, "repl.handler.b.table", "hr.jobs", "repl.handler.b.type", "IGNORE",
                "repl.handler.b.columns", "salary")).handlers()).hasSize(2);
        // disjoint lists and one * list for the rest: fine
        assertThat(load(concat(a, "repl.handler.b.table", "hr.emp", "repl.handler.b.type", "IGNORE",
                "repl.handler.b.columns", "name", "repl.handler.c.table", "hr.emp", "repl.handler.c.type", "RECORD"))
                .handlers()).extracting(HandlerDefinition::name).containsExactly("a", "b", "c");
    }

    @Test
    void onlyOneStarListPerTableOperationAndConflict() throws Exception {
        String[] a = handler("a", "table", "emp", "type", "OVERWRITE");
        SQLException e = fails("22023", concat(a, "repl.handler.b.table", "EMP", "repl.handler.b.type", "IGNORE"));
        assertThat(e.getMessage()).contains("a and b").contains("*").contains("repl.handler.b.columns");
        assertThat(load(concat(a, "repl.handler.b.table", "emp", "repl.handler.b.type", "IGNORE",
                "repl.handler.b.operation", "DELETE")).handlers()).hasSize(2);
    }

    @Test
    void handlerNamesHaveNoDotsAndNoOddCharacters() {
        fails("42704", "repl.handler.a.b.table", "emp");
        SQLException e = fails("22023", handler("a+b", "table", "emp", "type", "IGNORE"));
        assertThat(e.getMessage()).contains("a+b");
    }

    @Test
    void handlersOfATable() throws Exception {
        ReplConfig c = load(concat(handler("a", "table", "hr.emp", "type", "OVERWRITE"),
                "repl.handler.b.table", "jobs", "repl.handler.b.type", "IGNORE"));
        assertThat(c.handlers("HR", "EMP", null, true)).extracting(HandlerDefinition::name).containsExactly("a");
        assertThat(c.handlers("hr", "jobs", "hr", false)).extracting(HandlerDefinition::name).containsExactly("b");
        assertThat(c.handlers("hr", "jobs", "sales", false)).isEmpty();
    }

    @Property
    void columnListsOfOneGroupMustBeDisjointWithAtMostOneStar(@ForAll("specs") List<List<String>> specs) {
        // each spec: table, operation, columns
        List<String> kv = new ArrayList<>(List.of("repl.node", "n1"));
        Map<String, Set<String>> used = new HashMap<>();
        boolean valid = true;
        for (int i = 0; i < specs.size(); i++) {
            List<String> s = specs.get(i);
            String name = "h" + i;
            kv.addAll(List.of("repl.handler." + name + ".table", s.get(0), "repl.handler." + name + ".operation",
                    s.get(1), "repl.handler." + name + ".type", "OVERWRITE", "repl.handler." + name + ".columns",
                    s.get(2)));
            Set<String> group = used.computeIfAbsent((s.get(0) + "/" + s.get(1)).toLowerCase(Locale.ROOT),
                    k -> new HashSet<>());
            for (String col : s.get(2).split(",")) {
                valid &= group.add(col.toLowerCase(Locale.ROOT));
            }
        }
        boolean expected = valid;
        try {
            ReplConfig c = load(kv.toArray(new String[0]));
            assertThat(expected).as(specs.toString()).isTrue();
            assertThat(c.handlers()).hasSize(specs.size());
        } catch (SQLException e) {
            assertThat(expected).as(specs + " -> " + e.getMessage()).isFalse();
            assertThat(e.getSQLState()).isEqualTo("22023");
        }
    }

    @Provide
    Arbitrary<List<List<String>>> specs() {
        Arbitrary<String> table = Arbitraries.of("emp", "EMP", "jobs", "hr.emp");
        Arbitrary<String> op = Arbitraries.of("INSERT", "UPDATE");
        Arbitrary<String> columns = Arbitraries.oneOf(Arbitraries.just("*"),
                // "a" and "A" in one list is a duplicate: the expectation above counts it as one
                Arbitraries.of("a", "b", "c", "A", "d").set().ofMinSize(1).ofMaxSize(3).map(s -> String.join(",", s)));
        return Combinators.combine(table, op, columns).as(List::of).list().ofMaxSize(4);
    }

    // ---- custom handlers (5.4) ----

    private static String[] dml(String name, String... kv) {
        List<String> out = new ArrayList<>(List.of("repl.node", "n1"));
        for (int i = 0; i < kv.length; i += 2) {
            out.add("repl.dmlhandler." + name + "." + kv[i]);
            out.add(kv[i + 1]);
        }
        return out.toArray(new String[0]);
    }

    @Test
    void customHandlerDefaults() throws Exception {
        DmlHandlerDefinition d = load(dml("audit", "table", "hr.emp", "class", "com.example.Audit")).dmlHandlers().get(0);
        assertThat(d).isEqualTo(new DmlHandlerDefinition("audit", new TableName("hr", "emp"), DmlOperation.DEFAULT,
                "com.example.Audit", false));
    }

    @Test
    void customHandlerKeys() throws Exception {
        for (DmlOperation op : DmlOperation.values()) {
            DmlHandlerDefinition d = load(dml("x", "table", "emp", "class", "a.B$C", "operation",
                    op.name().toLowerCase(Locale.ROOT), "error_handler", "TRUE")).dmlHandlers().get(0);
            assertThat(d.operation()).isEqualTo(op);
            assertThat(d.errorHandler()).isTrue();
            assertThat(d.className()).isEqualTo("a.B$C");
        }
    }

    @Test
    void customHandlerNeedsTableAndClass() {
        SQLException e = fails("22023", dml("x", "class", "a.B"));
        assertThat(e.getMessage()).contains("x").contains("repl.dmlhandler.x.table");
        e = fails("22023", dml("x", "table", "emp"));
        assertThat(e.getMessage()).contains("repl.dmlhandler.x.class");
    }

    @Test
    void atMostOneCustomHandlerPerTableOperationAndErrorHandler() throws Exception {
        String[] a = dml("a", "table", "emp", "class", "a.A", "operation", "UPDATE");
        SQLException e = fails("22023", concat(a, "repl.dmlhandler.b.table", "EMP", "repl.dmlhandler.b.class", "b.B",
                "repl.dmlhandler.b.operation", "update"));
        assertThat(e.getMessage()).contains("a and b").contains("UPDATE").contains("EMP");
        assertThat(load(concat(a, "repl.dmlhandler.b.table", "emp", "repl.dmlhandler.b.class", "b.B",
                "repl.dmlhandler.b.operation", "UPDATE", "repl.dmlhandler.b.error_handler", "true")).dmlHandlers())
                .hasSize(2);
        assertThat(load(concat(a, "repl.dmlhandler.b.table", "emp", "repl.dmlhandler.b.class", "b.B",
                "repl.dmlhandler.b.operation", "DELETE")).dmlHandlers()).hasSize(2);
        assertThat(load(concat(a, "repl.dmlhandler.b.table", "emp", "repl.dmlhandler.b.class", "b.B")).dmlHandlers())
                .extracting(DmlHandlerDefinition::operation).containsExactly(DmlOperation.UPDATE, DmlOperation.DEFAULT);
    }

    @Test
    void customHandlersOfATable() throws Exception {
        ReplConfig c = load(dml("a", "table", "hr.emp", "class", "a.A"));
        assertThat(c.dmlHandlers("hr", "EMP", null, false)).hasSize(1);
        assertThat(c.dmlHandlers("sales", "emp", null, false)).isEmpty();
    }
}
