package io.jdbcrepl.apply;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One table's rows from the donor's snapshot into the joining node (SPEC 8.1), streamed, never the
 * whole table in memory. Between two databases of the same kind whose columns have the same types,
 * through the database's own bulk path ({@link NativeCopy}: PostgreSQL's {@code COPY}); otherwise
 * read with the connector's cursor and written in JDBC batches, committed every
 * {@link #COMMIT_ROWS} rows, the values as the apply side binds them: read by their portable type,
 * converted to the local column's ({@link ValueBinding}), an instant as an instant.
 */
final class TableCopy {

    static final int BATCH = 1_000;
    static final int COMMIT_ROWS = 20_000;

    /** Told the rows copied so far, after each batch. */
    interface Progress {
        void copied(long rows) throws SQLException;
    }

    private final Connection donor;
    private final Dialect donorDialect;
    private final TableInfo donorTable;
    private final Connection local;
    private final Dialect localDialect;
    private final TableMap.LocalTable localTable;
    /** Pairs of (donor column, local column) copied, in order. */
    private final List<ColumnInfo> from = new ArrayList<>();
    private final List<ColumnInfo> to = new ArrayList<>();

    TableCopy(Connection donor, Dialect donorDialect, TableInfo donorTable, Connection local, Dialect localDialect,
            TableMap.LocalTable localTable) throws SQLException {
        this.donor = donor;
        this.donorDialect = donorDialect;
        this.donorTable = donorTable;
        this.local = local;
        this.localDialect = localDialect;
        this.localTable = localTable;
        for (ColumnInfo c : donorTable.columns()) {
            if (c.generated()) continue; // computed from the others, here as there
            String stored = localTable.column(c.name());
            if (stored == null) {
                throw SqlState.UNDEFINED_COLUMN.exception("Column " + c.name() + " of " + donorTable.qualifiedName()
                        + " at the donor has no counterpart in " + localTable.sql() + " here: add it, or let the join"
                        + " create the table (drop it here first)");
            }
            ColumnInfo target = localTable.columnInfo(stored);
            if (target.generated()) continue;
            from.add(c);
            to.add(target);
        }
    }

    /** The rows the donor's snapshot holds. */
    long count() throws SQLException {
        try (PreparedStatement ps = donor.prepareStatement("SELECT count(*) FROM " + donorSql()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Copies every row; {@code last} runs in the transaction of the last rows, before its commit (the
     * join records the table copied there). Returns the rows copied.
     */
    long run(Progress progress, Progress last) throws SQLException {
        long rows = natively() ? copyNatively(progress) : copyInBatches(progress);
        last.copied(rows);
        local.commit();
        return rows;
    }

    /**
     * Whether the database's own bulk path serves ({@link NativeCopy}): donor and joiner the same
     * database, every column of the same type on both and read as it is stored (no large objects).
     */
    boolean natively() {
        if (donorDialect.getClass() != localDialect.getClass() || !localDialect.part(NativeCopy.class).exists()) return false;
        for (int i = 0; i < from.size(); i++) {
            ColumnInfo d = from.get(i);
            String quoted = donorDialect.quote(d.name());
            if (d.typeName() == null || !d.typeName().equalsIgnoreCase(to.get(i).typeName()) || d.type() != to.get(i).type()
                    || d.isLargeObject() || !donorDialect.readValue(d.type(), quoted).equals(quoted)) {
                return false;
            }
        }
        return true;
    }

    /** In one transaction, as the database's own dump and restore would. */
    private long copyNatively(Progress progress) throws SQLException {
        String select = "SELECT " + from.stream().map(c -> donorDialect.quote(c.name())).collect(Collectors.joining(", "))
                + " FROM " + donorSql();
        List<String> columns = to.stream().map(c -> localDialect.quote(c.name())).toList();
        return localDialect.part(NativeCopy.class).copy(donor, select, local, localTable.sql(), columns, progress::copied);
    }

    /** Values read by their portable type and inserted in JDBC batches, committed every {@link #COMMIT_ROWS}. */
    private long copyInBatches(Progress progress) throws SQLException {
        String select = "SELECT " + from.stream().map(c -> donorDialect.readValue(c.type(), donorDialect.quote(c.name())))
                .collect(Collectors.joining(", ")) + " FROM " + donorSql();
        List<String> columns = to.stream().map(ColumnInfo::name).toList();
        long rows = 0;
        try (PreparedStatement read = donor.prepareStatement(select);
                PreparedStatement write = local.prepareStatement(RowSql.insert(localDialect, localTable, columns))) {
            read.setFetchSize(BATCH);
            try (ResultSet rs = read.executeQuery()) {
                int batched = 0;
                while (rs.next()) {
                    for (int i = 0; i < from.size(); i++) {
                        ValueBinding.bind(write, i + 1, value(rs, i), to.get(i).type(), localDialect);
                    }
                    write.addBatch();
                    rows++;
                    if (++batched == BATCH) {
                        write.executeBatch();
                        batched = 0;
                        if (rows % COMMIT_ROWS == 0) local.commit();
                        progress.copied(rows);
                    }
                }
                if (batched > 0) write.executeBatch();
            }
        }
        return rows;
    }

    /** The donor's value of column {@code i}: a MariaDB TIMESTAMP (read in UTC) as the instant it holds. */
    private TypedValue value(ResultSet rs, int i) throws SQLException {
        ColumnInfo c = from.get(i);
        Object v = c.type().read(rs, i + 1);
        if (v != null && c.holdsInstant(donorDialect)) {
            return new TypedValue(ValueType.TIMESTAMPTZ, ((LocalDateTime) v).atOffset(ZoneOffset.UTC));
        }
        return new TypedValue(c.type(), v);
    }

    private String donorSql() {
        return RowSql.table(donorDialect, donorTable.schema(), donorTable.name());
    }
}
