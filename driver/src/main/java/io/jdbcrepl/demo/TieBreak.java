package io.jdbcrepl.demo;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import io.jdbcrepl.conflict.ValueComparison;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's error handler (SPEC 5.4) behind its MAXIMUM and MINIMUM lists: the backup method
 * Oracle pairs with a timestamp method, for when two versions of a row carry the same time. The
 * demo's writers collide on a few hot rows on every node at once, so two nodes can stamp one in
 * the same microsecond (seen with MariaDB on a quiet machine), and SPEC 5.6 has two nodes whose
 * clock is behind a peer's both add one microsecond to that peer's value. MAXIMUM and MINIMUM
 * cannot resolve such a tie (SPEC 5.3), which would queue the whole source transaction and leave
 * the nodes apart.
 *
 * <p>On a tie the list's other values decide, compared column by column in a fixed order (NULL
 * first): MAXIMUM keeps the greater version, MINIMUM the lesser, the same one on every node. The
 * winning values are written with a statement of their own and the LCR is discarded. Any other
 * unresolved error goes to the error queue as before.
 */
public final class TieBreak implements DmlHandler {

    /** A table's list: its resolution column, MAXIMUM or MINIMUM, the other columns in tie-break order, its key. */
    record Rule(String resolution, boolean maximum, List<String> others, String key) {
    }

    /** The lists of {@link DemoCluster#HANDLERS} that resolve by a time. */
    static final Map<String, Rule> RULES = Map.of(
            "demo_employees", new Rule("updated_at", true, List.of("salary", "commission_pct"), "employee_id"),
            "demo_orders", new Rule("updated_at", true, List.of("customer", "status", "amount"), "id"),
            "demo_badges", new Rule("granted_at", false, List.of("holder"), "code"));

    @Override
    public void handle(DmlContext context) throws SQLException {
        RowLcr lcr = context.lcr();
        Conflict conflict = context.conflict();
        String table = lcr.objectName().toLowerCase(Locale.ROOT);
        Rule rule = RULES.get(table);
        if (rule == null || conflict == null || conflict.type() != ConflictType.ROW_EXISTS) throw unresolved(context);
        RowImage current = conflict.currentRow();
        if (order(lcr.value(find(lcr.columns(), rule.resolution())),
                get(current, rule.resolution())).filter(c -> c == 0).isEmpty()) {
            throw unresolved(context); // not a tie: whatever it is, a person looks at it
        }
        int order = 0;
        for (String column : rule.others()) {
            Optional<Integer> c = order(lcr.value(find(lcr.columns(), column)), get(current, column));
            if (c.isEmpty()) throw unresolved(context);
            order = c.get();
            if (order != 0) break;
        }
        if (rule.maximum() ? order > 0 : order < 0) write(context, table, rule);
        context.discard();
    }

    /** The LCR's values of the list, by its key, over the destination's row. */
    private static void write(DmlContext context, String table, Rule rule) throws SQLException {
        RowLcr lcr = context.lcr();
        StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ").append(rule.resolution()).append(" = ?");
        for (String column : rule.others()) sql.append(", ").append(column).append(" = ?");
        sql.append(" WHERE ").append(rule.key()).append(" = ?");
        try (PreparedStatement ps = context.connection().prepareStatement(sql.toString())) {
            int i = 0;
            bind(ps, ++i, lcr.value(find(lcr.columns(), rule.resolution())));
            for (String column : rule.others()) bind(ps, ++i, lcr.value(find(lcr.columns(), column)));
            bind(ps, ++i, lcr.value(find(lcr.columns(), rule.key())));
            if (ps.executeUpdate() != 1) {
                throw new SQLException("TieBreak: no row of " + table + " with the LCR's " + rule.key(), "02000");
            }
        }
    }

    private static void bind(PreparedStatement ps, int index, TypedValue value) throws SQLException {
        if (value == null || value.isNull()) ps.setNull(index, Types.NULL);
        else ps.setObject(index, value.value());
    }

    /** The order of the LCR's value against the destination's, NULL first; empty when either is missing or they cannot be ordered. */
    private static Optional<Integer> order(TypedValue lcr, TypedValue destination) {
        if (lcr == null || destination == null) return Optional.empty();
        if (lcr.isNull() || destination.isNull()) {
            return Optional.of(Boolean.compare(!lcr.isNull(), !destination.isNull()));
        }
        return ValueComparison.compare(lcr, destination);
    }

    private static TypedValue get(RowImage row, String column) {
        return row.get(find(row.asMap().keySet(), column));
    }

    /** The column as a database stores its name (H2: upper case), or the name as given. */
    private static String find(Iterable<String> names, String column) {
        for (String name : names) {
            if (name.equalsIgnoreCase(column)) return name;
        }
        return column;
    }

    private static SQLException unresolved(DmlContext context) {
        SQLException error = context.error();
        return error != null ? error : new SQLException("TieBreak handles ties of a demo table's resolution column only", "45000");
    }
}
