package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.conflict.Resolution.Action;
import io.jdbcrepl.conflict.Resolution.HandlerOutcome;
import io.jdbcrepl.conflict.Resolution.Outcome;
import io.jdbcrepl.conflict.Resolution.RecordEntry;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The prebuilt handlers of one table (SPEC 5.3): given an LCR and its {@link Conflict}, the
 * {@link Resolution} to execute. Each rule below cites the SPEC 5.3 sentence it implements.
 *
 * <p>One reading of the SPEC is this class's own: the {@code *} list is "all columns in no other
 * list"; for the rule "if the LCR lacks a value for a column of the list" its columns are those
 * the LCR carries or that conflict, since capture cannot make {@code *} a conditional log group
 * (it would log every old value of every update). A named list needs all of its columns.
 *
 * <p>Build it once per table at connect with {@link #forTable}, which also checks the rules that
 * need the table's columns.
 */
public final class ConflictResolver {

    /** In the message of every RECORD handler's error queue entry, before the handlers' names; readers tell those entries from failed transactions by it. */
    public static final String RECORDED_BY = " recorded by ";

    private final TableSettings table;
    private final List<HandlerDefinition> handlers;

    /** Without the checks of {@link #forTable}; the handlers must all be for this table. */
    public ConflictResolver(TableSettings table, List<HandlerDefinition> handlers) {
        this.table = table;
        this.handlers = List.copyOf(handlers);
    }

    /**
     * The resolver of a table, after the rules of SPEC 5.3 that need its columns: every named
     * column and resolution column exists, DELTA columns are numeric (a {@code *} DELTA list: every
     * column in it but the key), and the column lists stay disjoint now that names such as
     * {@code emp} and {@code hr.emp} are known to be one table. SQLState 22023 naming the key.
     *
     * @param handlers the table's prebuilt handlers ({@code ReplConfig.handlers(schema, table, ...)})
     * @param columnTypes every column of the destination table and its type, in table order
     */
    public static ConflictResolver forTable(TableSettings table, List<HandlerDefinition> handlers,
            Map<String, ValueType> columnTypes) throws SQLException {
        for (HandlerDefinition h : handlers) {
            String where = "Handler " + h.name() + " on table " + table.qualifiedName() + ": ";
            for (String c : h.columns().columns()) {
                if (!Columns.contains(columnTypes.keySet(), c)) {
                    throw invalid(where + "repl.handler." + h.name() + ".columns=" + h.columns() + " names column " + c
                            + ", which the table does not have (columns: " + columnTypes.keySet() + ")");
                }
            }
            if (h.resolution() != null) {
                if (!Columns.contains(columnTypes.keySet(), h.resolution())) {
                    throw invalid(where + "repl.handler." + h.name() + ".resolution=" + h.resolution()
                            + " is not a column of the table (columns: " + columnTypes.keySet() + ")");
                }
            }
            if (h.type() == HandlerType.DELTA) {
                for (Map.Entry<String, ValueType> e : columnTypes.entrySet()) {
                    boolean inList = h.columns().star()
                            ? !table.isKey(e.getKey()) && handlers.stream().noneMatch(o -> o != h && sameGroup(h, o)
                                    && Columns.contains(o.columns().columns(), e.getKey()))
                            : Columns.contains(h.columns().columns(), e.getKey());
                    if (inList && !ValueComparison.isDeltaType(e.getValue())) {
                        throw invalid(where + "DELTA (repl.handler." + h.name() + ".type) on column " + e.getKey()
                                + " of type " + e.getValue().logName() + " (repl.handler." + h.name() + ".columns="
                                + h.columns() + "): DELTA needs numeric columns");
                    }
                }
            }
        }
        // the list rules again, now that "emp" and "hr.emp" are known to be this one table
        HandlerDefinition.checkLists(handlers);
        return new ConflictResolver(table, handlers);
    }

    private static boolean sameGroup(HandlerDefinition a, HandlerDefinition b) {
        return a.operation() == b.operation() && a.conflict() == b.conflict();
    }

    private static SQLException invalid(String message) {
        return SqlState.INVALID_PARAMETER_VALUE.exception(message);
    }

    public TableSettings table() {
        return table;
    }

    /** SPEC 5.2's first step for one LCR: the prebuilt handlers' decision. */
    public Resolution resolve(RowLcr lcr, Conflict conflict) {
        if (conflict.kind() == ConflictKind.FOREIGN_KEY) {
            // "There are no prebuilt DML conflict handlers for delete or foreign key conflicts" (seed):
            // after repl.fk.retry the apply side goes on with the error handler and the error queue.
            return unresolved(lcr, conflict, "foreign key conflict (" + conflict.detail() + ")", List.of(),
                    List.of(new HandlerOutcome(null, null, List.of(), Outcome.NO_HANDLER, null)));
        }
        List<HandlerDefinition> group = handlers.stream()
                .filter(h -> h.operation() == conflict.operation() && h.conflict() == conflict.type()).toList();
        if (conflict.type() == ConflictType.ROW_MISSING || conflict.operation() == DmlOperation.DELETE) {
            return wholeRow(lcr, conflict, group);
        }
        return byColumns(lcr, conflict, group);
    }

    // ---- ROW_MISSING and DELETE: "ROW_MISSING and DELETE handlers take only the * list"

    private Resolution wholeRow(RowLcr lcr, Conflict conflict, List<HandlerDefinition> group) {
        List<String> columns = conflict.columns();
        if (group.isEmpty()) {
            return unresolved(lcr, conflict, "no handler for " + conflict.operation() + "/" + conflict.type(), List.of(),
                    List.of(new HandlerOutcome(null, null, columns, Outcome.NO_HANDLER, null)));
        }
        HandlerDefinition h = group.get(0);
        List<String> tried = List.of(h.name());
        switch (h.type()) {
            case IGNORE, DISCARD:
                // "IGNORE, DISCARD: the list's columns keep the destination's values; no error."
                return decided(Action.DISCARD, new RowImage(), new RowImage(), tried, List.of(),
                        List.of(outcome(h, columns, Outcome.DESTINATION_KEPT)), conflict, lcr);
            case RECORD:
                // "RECORD: ... keep the destination's values and the LCR is recorded in the error queue"
                return decided(Action.DISCARD, new RowImage(), new RowImage(), tried, List.of(record(lcr, conflict, h)),
                        List.of(outcome(h, columns, Outcome.RECORDED)), conflict, lcr);
            case OVERWRITE:
                if (conflict.operation() == DmlOperation.DELETE && conflict.type() == ConflictType.ROW_EXISTS) {
                    // "DELETE/ROW_EXISTS: ... OVERWRITE (delete anyway)"
                    return decided(Action.DELETE, keyOf(lcr, conflict, table), new RowImage(), tried, List.of(),
                            List.of(outcome(h, columns, Outcome.LCR_APPLIED)), conflict, lcr);
                }
                if (conflict.operation() == DmlOperation.UPDATE) {
                    // "UPDATE/ROW_MISSING: ... OVERWRITE (the update becomes an insert from the LCR's
                    // values; needs every NOT NULL column)"
                    RowImage row = new RowImage();
                    for (String c : lcr.columns()) {
                        row.put(c, lcr.value(c));
                    }
                    for (String c : table.notNullColumns()) {
                        TypedValue v = Columns.get(row, c);
                        if (v == null || v.isNull()) {
                            String why = "OVERWRITE cannot turn the update into an insert: the LCR has "
                                    + (v == null ? "no value" : "NULL") + " for NOT NULL column " + c;
                            return unresolved(lcr, conflict, why, tried,
                                    List.of(new HandlerOutcome(h.name(), h.type(), columns, Outcome.FAILED, why)));
                        }
                    }
                    return decided(Action.INSERT, keyOf(lcr, conflict, table), row, tried, List.of(),
                            List.of(outcome(h, columns, Outcome.LCR_APPLIED)), conflict, lcr);
                }
                break;
            default:
                break;
        }
        // connect refuses these combinations; kept unresolved should a definition get here anyway
        String why = h.type() + " is not valid for " + conflict.operation() + "/" + conflict.type();
        return unresolved(lcr, conflict, why, tried,
                List.of(new HandlerOutcome(h.name(), h.type(), columns, Outcome.FAILED, why)));
    }

    // ---- UPDATE/ROW_EXISTS and INSERT/ROW_EXISTS: column lists

    private Resolution byColumns(RowLcr lcr, Conflict conflict, List<HandlerDefinition> group) {
        RowImage current = conflict.currentRow();
        // "The handler of a list is called only when a column of that list conflicts; a conflict in
        // a column of no list goes to 5.2's next step."
        Map<HandlerDefinition, List<String>> routed = new LinkedHashMap<>();
        List<String> unrouted = new ArrayList<>();
        for (String c : conflict.columns()) {
            Optional<HandlerDefinition> h = listOf(group, c);
            if (h.isPresent()) {
                routed.computeIfAbsent(h.get(), k -> new ArrayList<>()).add(c);
            } else {
                unrouted.add(c);
            }
        }
        if (!unrouted.isEmpty()) {
            return unresolved(lcr, conflict, "conflict in " + describe(unrouted, lcr, conflict)
                    + " of no handler's column list", List.of(),
                    List.of(new HandlerOutcome(null, null, unrouted, Outcome.NO_HANDLER, null)));
        }

        // "Columns without conflict are applied from the LCR": start from the LCR's new values, and
        // let each conflicting list's handler decide its own columns.
        RowImage set = new RowImage();
        lcr.newValues().asMap().forEach((c, v) -> set.put(destinationName(c, current), v));
        List<HandlerOutcome> outcomes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<String> recording = new ArrayList<>();
        for (Map.Entry<HandlerDefinition, List<String>> e : routed.entrySet()) {
            HandlerDefinition h = e.getKey();
            List<String> listColumns = listColumns(h, group, lcr, conflict);
            for (String c : listColumns) {
                set.remove(destinationName(c, current));
            }
            Decision d = decide(h, listColumns, lcr, conflict);
            if (d.failure != null) {
                // "When several lists conflict, each list's handler resolves its own columns; if any
                // cannot, the LCR is unresolved."
                failures.add(h.name() + " (" + h.type() + " on " + String.join(",", e.getValue()) + "): " + d.failure);
                outcomes.add(new HandlerOutcome(h.name(), h.type(), e.getValue(), Outcome.FAILED, d.failure));
                continue;
            }
            d.values.asMap().forEach((c, v) -> set.put(destinationName(c, current), v));
            if (d.outcome == Outcome.RECORDED) {
                recording.add(h.name());
            }
            outcomes.add(new HandlerOutcome(h.name(), h.type(), e.getValue(), d.outcome, null));
        }
        List<String> tried = routed.keySet().stream().map(HandlerDefinition::name).toList();
        if (!failures.isEmpty()) {
            return unresolved(lcr, conflict, "conflict in " + describe(conflict.columns(), lcr, conflict)
                    + " not resolved: " + String.join("; ", failures), tried, outcomes);
        }
        // only what changes: a column already at its value needs no write
        RowImage changes = new RowImage();
        set.asMap().forEach((c, v) -> {
            TypedValue now = Columns.get(current, c);
            if (now == null || !ValueComparison.same(now, v)) {
                changes.put(c, v);
            }
        });
        List<RecordEntry> records = recording.isEmpty() ? List.of()
                : List.of(new RecordEntry(lcr, recording, conflictText(lcr, conflict)
                        + RECORDED_BY + String.join(", ", recording)));
        // "INSERT/ROW_EXISTS: ... OVERWRITE (the insert becomes an update of the existing row)"
        if (changes.isEmpty()) {
            return decided(Action.DISCARD, new RowImage(), new RowImage(), tried, records, outcomes, conflict, lcr);
        }
        return decided(Action.UPDATE, keyOf(lcr, conflict, table), changes, tried, records, outcomes, conflict, lcr);
    }

    /** The list a conflicting column belongs to: a named list that holds it, else the * list. */
    private static Optional<HandlerDefinition> listOf(List<HandlerDefinition> group, String column) {
        Optional<HandlerDefinition> named = group.stream()
                .filter(h -> !h.columns().star() && Columns.contains(h.columns().columns(), column)).findFirst();
        // ".columns: the column list, or * for all columns in no other list of the same table,
        // operation and conflict type"
        return named.isPresent() ? named : group.stream().filter(h -> h.columns().star()).findFirst();
    }

    /** A named list's columns, or the * list's: the LCR's and the conflicting columns in no named list. */
    private static List<String> listColumns(HandlerDefinition h, List<HandlerDefinition> group, RowLcr lcr,
            Conflict conflict) {
        if (!h.columns().star()) {
            return h.columns().columns();
        }
        List<String> out = new ArrayList<>();
        List<String> candidates = new ArrayList<>(lcr.columns());
        for (String c : conflict.columns()) {
            if (!Columns.contains(candidates, c)) {
                candidates.add(c);
            }
        }
        for (String c : candidates) {
            if (group.stream().noneMatch(o -> !o.columns().star() && Columns.contains(o.columns().columns(), c))) {
                out.add(c);
            }
        }
        return out;
    }

    /** One handler's decision for its list: values to set, or why it cannot. */
    private record Decision(RowImage values, Outcome outcome, String failure) {
        static Decision of(RowImage values, Outcome outcome) {
            return new Decision(values, outcome, null);
        }

        static Decision fail(String why) {
            return new Decision(null, null, why);
        }
    }

    private Decision decide(HandlerDefinition h, List<String> listColumns, RowLcr lcr, Conflict conflict) {
        RowImage current = conflict.currentRow();
        HandlerType type = h.type();
        if (type == HandlerType.IGNORE || type == HandlerType.DISCARD) {
            // "IGNORE, DISCARD: the list's columns keep the destination's values; no error" - also
            // when the LCR lacks values of the list ("IGNORE and DISCARD still discard without error")
            return Decision.of(new RowImage(), Outcome.DESTINATION_KEPT);
        }
        if (type == HandlerType.RECORD) {
            // "RECORD: the list's columns keep the destination's values and the LCR is recorded in
            // the error queue as an entry of its own ...; the rest of the transaction is applied."
            return Decision.of(new RowImage(), Outcome.RECORDED);
        }
        if (conflict.operation() == DmlOperation.INSERT && !conflict.onKey()) {
            // "INSERT/ROW_EXISTS: ... OVERWRITE, MAXIMUM and MINIMUM only for a conflict on the key."
            return Decision.fail("the insert conflicts with another unique value than its key; " + type
                    + " resolves only a conflict on the key");
        }
        // "If the LCR lacks a value for a column of the list, OVERWRITE, MAXIMUM, MINIMUM and DELTA
        // cannot resolve."
        List<String> missing = listColumns.stream().filter(c -> lcrValue(lcr, c) == null).toList();
        if (!missing.isEmpty()) {
            return Decision.fail("the LCR has no value for " + String.join(",", missing));
        }
        switch (type) {
            case OVERWRITE:
                // "OVERWRITE: the list's columns take the LCR's values."
                return Decision.of(lcrValues(lcr, listColumns), Outcome.LCR_APPLIED);
            case MAXIMUM, MINIMUM: {
                // "MAXIMUM (MINIMUM): if the LCR's resolution value is greater (less) than the
                // destination's, the list's columns take the LCR's values; if it is less (greater),
                // they keep the destination's. Equal values, or a NULL on either side: cannot resolve."
                String r = h.resolution();
                TypedValue mine = lcrValue(lcr, r);
                TypedValue theirs = Columns.get(current, r);
                if (mine == null) {
                    return Decision.fail("the LCR has no value for resolution column " + r);
                }
                if (theirs == null) {
                    return Decision.fail("the destination row has no resolution column " + r);
                }
                if (mine.isNull() || theirs.isNull()) {
                    return Decision.fail("resolution column " + r + " is NULL (LCR " + show(mine) + ", destination "
                            + show(theirs) + ")");
                }
                Optional<Integer> c = ValueComparison.compare(mine, theirs);
                if (c.isEmpty()) {
                    return Decision.fail("resolution values of " + r + " cannot be ordered (LCR " + show(mine)
                            + ", destination " + show(theirs) + ")");
                }
                if (c.get() == 0) {
                    return Decision.fail("equal resolution values of " + r + " (" + show(mine) + ")");
                }
                boolean lcrWins = type == HandlerType.MAXIMUM ? c.get() > 0 : c.get() < 0;
                return lcrWins ? Decision.of(lcrValues(lcr, listColumns), Outcome.LCR_APPLIED)
                        : Decision.of(new RowImage(), Outcome.DESTINATION_KEPT);
            }
            case DELTA: {
                // "DELTA: each column becomes destination + (LCR new - LCR old). A NULL anywhere:
                // cannot resolve." (a column only in the old values did not change: its delta is 0)
                RowImage out = new RowImage();
                for (String c : listColumns) {
                    TypedValue old = Columns.get(lcr.oldValues(), c);
                    TypedValue now = Columns.get(current, c);
                    if (old == null) {
                        return Decision.fail("the LCR has no old value for " + c);
                    }
                    if (now == null) {
                        return Decision.fail("the destination row has no column " + c);
                    }
                    Optional<TypedValue> v = ValueComparison.delta(now, old, lcrValue(lcr, c));
                    if (v.isEmpty()) {
                        return Decision.fail("DELTA on " + c + " needs numbers without NULL (destination " + show(now)
                                + ", LCR old " + show(old) + ", new " + show(lcrValue(lcr, c)) + ")");
                    }
                    out.put(c, v.get());
                }
                return Decision.of(out, Outcome.DELTA_APPLIED);
            }
            default:
                return Decision.fail(type + " is not valid for " + conflict.operation() + "/" + conflict.type());
        }
    }

    // ---- helpers

    /** "The LCR's value of a column is its new value, else its old value." */
    private static TypedValue lcrValue(RowLcr lcr, String column) {
        TypedValue v = Columns.get(lcr.newValues(), column);
        return v != null ? v : Columns.get(lcr.oldValues(), column);
    }

    private static RowImage lcrValues(RowLcr lcr, List<String> columns) {
        RowImage out = new RowImage();
        for (String c : columns) {
            out.put(c, lcrValue(lcr, c));
        }
        return out;
    }

    /**
     * The key of the row a conflict is about, in the destination's spelling: the destination row's
     * own key values when it is there, else the LCR's old key (UPDATE, DELETE) or new key (INSERT).
     */
    static RowImage keyOf(RowLcr lcr, Conflict conflict, TableSettings table) {
        RowImage key = new RowImage();
        RowImage current = conflict.currentRow();
        for (String k : table.keyColumns()) {
            TypedValue v = Columns.get(current, k);
            if (v == null) {
                v = conflict.operation() == DmlOperation.INSERT ? lcrValue(lcr, k)
                        : Optional.ofNullable(Columns.get(lcr.oldValues(), k)).orElse(lcrValue(lcr, k));
            }
            String name = destinationName(k, current);
            if (v != null) {
                key.put(name, v);
            }
        }
        return key;
    }

    private static String destinationName(String column, RowImage current) {
        String n = Columns.nameIn(current, column);
        return n != null ? n : column;
    }

    private static HandlerOutcome outcome(HandlerDefinition h, List<String> columns, Outcome o) {
        return new HandlerOutcome(h.name(), h.type(), columns, o, null);
    }

    private RecordEntry record(RowLcr lcr, Conflict conflict, HandlerDefinition h) {
        return new RecordEntry(lcr, List.of(h.name()), conflictText(lcr, conflict) + RECORDED_BY + h.name());
    }

    private Resolution decided(Action action, RowImage key, RowImage values, List<String> tried,
            List<RecordEntry> records, List<HandlerOutcome> outcomes, Conflict conflict, RowLcr lcr) {
        return new Resolution(action, key, values, null, tried, records, outcomes, conflict, lcr);
    }

    private Resolution unresolved(RowLcr lcr, Conflict conflict, String why, List<String> tried,
            List<HandlerOutcome> outcomes) {
        return new Resolution(Action.UNRESOLVED, new RowImage(), new RowImage(), conflictText(lcr, conflict) + ": " + why,
                tried, List.of(), outcomes, conflict, lcr);
    }

    /** "UPDATE/ROW_EXISTS conflict on hr.employees key {employee_id=200} from dbs1 tx 12". */
    private String conflictText(RowLcr lcr, Conflict conflict) {
        String type = conflict.type() == ConflictType.FOREIGN_KEY ? conflict.type().name() : conflict.operation() + "/" + conflict.type();
        return type + " conflict on " + table.qualifiedName() + " key " + plain(keyOf(lcr, conflict, table)) + " from "
                + lcr.sourceDatabase() + " tx " + lcr.transactionId();
    }

    /** "salary (LCR 4400 -> 4900, destination 5000)" for each column. */
    private static String describe(List<String> columns, RowLcr lcr, Conflict conflict) {
        return columns.stream().map(c -> {
            TypedValue old = Columns.get(lcr.oldValues(), c);
            TypedValue nw = Columns.get(lcr.newValues(), c);
            String l = old != null && nw != null ? show(old) + " -> " + show(nw) : show(old != null ? old : nw);
            return c + " (LCR " + l + ", destination " + show(Columns.get(conflict.currentRow(), c)) + ")";
        }).collect(Collectors.joining(", "));
    }

    private static String plain(RowImage image) {
        return image.asMap().entrySet().stream().map(e -> e.getKey() + "=" + show(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String show(TypedValue v) {
        if (v == null) {
            return "none";
        }
        if (v.isNull()) {
            return "NULL";
        }
        if (v.value() instanceof byte[] b) {
            return "byte[" + b.length + "]";
        }
        String s = v.value().toString();
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
