package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.config.TableName;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Rows, LCRs and handler definitions for the conflict tests, written tersely. */
final class Fixtures {

    static final TableSettings EMP = TableSettings.of("hr", "employees", List.of("employee_id"));

    private Fixtures() {}

    /** A typed value from a Java value; a TypedValue passes as it is. */
    static TypedValue v(Object o) {
        if (o instanceof TypedValue t) return t;
        if (o instanceof Integer i) return new TypedValue(ValueType.INTEGER, i.longValue());
        if (o instanceof Long l) return new TypedValue(ValueType.INTEGER, l);
        if (o instanceof BigDecimal d) return new TypedValue(ValueType.DECIMAL, d);
        if (o instanceof Double d) return new TypedValue(ValueType.FLOAT, d);
        if (o instanceof String s) return new TypedValue(ValueType.STRING, s);
        if (o instanceof Boolean b) return new TypedValue(ValueType.BOOLEAN, b);
        if (o instanceof OffsetDateTime t) return new TypedValue(ValueType.TIMESTAMPTZ, t);
        if (o instanceof LocalDateTime t) return new TypedValue(ValueType.TIMESTAMP, t);
        if (o instanceof byte[] b) return new TypedValue(ValueType.BINARY, b);
        throw new IllegalArgumentException("no type for " + o);
    }

    static TypedValue nul(ValueType t) {
        return new TypedValue(t, null);
    }

    static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    /** row("id", 1, "salary", dec("4400")). */
    static RowImage row(Object... kv) {
        RowImage r = new RowImage();
        for (int i = 0; i < kv.length; i += 2) r.put((String) kv[i], v(kv[i + 1]));
        return r;
    }

    static RowLcr lcr(CommandType type, RowImage old, RowImage nw) {
        return new RowLcr("dbs1", type, "hr", "employees", "tx1", 1, Instant.parse("2026-01-01T00:00:00Z"), null, old,
                nw, List.copyOf(nw.asMap().keySet()), Map.of());
    }

    static RowLcr update(RowImage old, RowImage nw) {
        return lcr(CommandType.UPDATE, old, nw);
    }

    static RowLcr insert(RowImage nw) {
        return lcr(CommandType.INSERT, new RowImage(), nw);
    }

    static RowLcr delete(RowImage old) {
        return lcr(CommandType.DELETE, old, new RowImage());
    }

    /** An UPDATE/ROW_EXISTS handler. */
    static HandlerDefinition handler(String name, HandlerType type, String columns, String resolution) {
        return handler(name, type, columns, resolution, DmlOperation.UPDATE, ConflictType.ROW_EXISTS);
    }

    static HandlerDefinition handler(String name, HandlerType type, String columns, String resolution,
            DmlOperation op, ConflictType conflict) {
        ColumnSet set = columns.equals("*") ? ColumnSet.STAR : ColumnSet.of(Arrays.asList(columns.split(",")));
        return new HandlerDefinition(name, new TableName("hr", "employees"), type, set, resolution, op, conflict);
    }

    static Resolution resolve(TableSettings t, RowLcr lcr, RowImage current, HandlerDefinition... handlers) {
        Conflict c = ConflictDetector.detect(lcr, current, t).orElseThrow(() -> new AssertionError("no conflict"));
        return new ConflictResolver(t, List.of(handlers)).resolve(lcr, c);
    }
}
