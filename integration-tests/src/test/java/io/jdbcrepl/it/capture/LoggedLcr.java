package io.jdbcrepl.it.capture;

import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.ValueType;

import java.util.List;
import java.util.Map;

/**
 * One row of a node's {@code repl_log}, decoded with the driver's own LCR model
 * ({@link RowImage#fromJson}): what an apply side would read.
 *
 * @param oldValues    the decoded old values, or null where the column is SQL NULL
 * @param newValues    the decoded new values, or null where the column is SQL NULL
 * @param changeVector the assigned columns; empty where the column is SQL NULL
 */
record LoggedLcr(long position, String txId, String sourceNode, String command, String schema, String table,
        RowImage oldValues, RowImage newValues, List<String> changeVector, Map<String, ValueType> types,
        String userName, byte[] tag) {

    /**
     * The LCR as one comparable line: {@code UPDATE item old{id=INTEGER:1, qty=INTEGER:3} new{qty=INTEGER:4} cv[qty]}.
     * Every value carries the type the log gives it; images that are SQL NULL are left out.
     */
    String brief() {
        StringBuilder sb = new StringBuilder(command).append(' ').append(table);
        if (oldValues != null) sb.append(" old").append(oldValues);
        if (newValues != null) sb.append(" new").append(newValues);
        sb.append(" cv").append(changeVector);
        return sb.toString();
    }

    @Override
    public String toString() {
        return "#" + position + " tx " + txId + " " + brief();
    }
}
