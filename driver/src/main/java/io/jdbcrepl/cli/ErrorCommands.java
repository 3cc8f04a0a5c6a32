package io.jdbcrepl.cli;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.apply.NodeAdmin;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowLcr;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The CLI's {@code errors list|show|retry|delete} (SPEC 5.5), through the node's {@link NodeAdmin}. */
final class ErrorCommands {

    private ErrorCommands() {
    }

    static int list(Invocation invocation) throws SQLException {
        List<ErrorEntry> entries = new NodeAdmin(ApplyCommands.node(invocation)).errors();
        PrintStream out = invocation.out;
        if (invocation.flag(Option.JSON.name())) {
            out.println(Json.write(entries.stream().map(ErrorCommands::json).toList()));
            return ExitCode.OK;
        }
        if (entries.isEmpty()) {
            out.println("The error queue is empty.");
            return ExitCode.OK;
        }
        out.printf("%-8s %-12s %-20s %8s %6s %-12s  %s%n", "ID", "SOURCE", "TRANSACTION", "POSITION", "LCRS", "CODE",
                "ERROR");
        for (ErrorEntry e : entries) {
            out.printf("%-8d %-12s %-20s %8d %6d %-12s  %s%n", e.id(), e.sourceDatabase(), e.sourceTransactionId(),
                    e.sourcePosition(), e.messageCount(), e.errorCode(), oneLine(e.errorMessage()));
        }
        return ExitCode.OK;
    }

    static int show(Invocation invocation) throws SQLException, UsageException {
        ErrorEntry e = new NodeAdmin(ApplyCommands.node(invocation)).error(id(invocation));
        PrintStream out = invocation.out;
        if (invocation.flag(Option.JSON.name())) {
            out.println(Json.write(json(e)));
            return ExitCode.OK;
        }
        out.println("Entry " + e.id() + ": transaction " + e.sourceTransactionId() + " from " + e.sourceDatabase()
                + " (position " + e.sourcePosition() + "), queued " + e.createdAt());
        out.println("Error at LCR " + e.messageNumber() + " of " + e.messageCount() + ", " + e.errorCode() + ": "
                + oneLine(e.errorMessage()));
        int n = 0;
        for (RowLcr lcr : e.lcrs()) {
            out.println("  " + (++n) + ". " + lcr.commandType() + " " + table(lcr) + " old " + lcr.oldValues().valuesJson()
                    + " new " + lcr.newValues().valuesJson());
        }
        return ExitCode.OK;
    }

    static int retry(Invocation invocation) throws SQLException, UsageException {
        NodeAdmin admin = new NodeAdmin(ApplyCommands.node(invocation));
        if (invocation.flag("--all")) {
            int before = admin.errors().size();
            try {
                int done = admin.retryAllErrors();
                invocation.out.println("Applied " + done + " of " + before + " queued entries; the queue is empty.");
                return ExitCode.OK;
            } catch (SQLException e) {
                invocation.err.println("jdbc-repl: errors retry: " + Main.oneLine(e.getMessage()));
                invocation.err.println("jdbc-repl: " + admin.errors().size() + " of " + before
                        + " entries remain queued (retry stopped at the first failure)");
                return ExitCode.FAILED;
            }
        }
        long id = id(invocation);
        try {
            admin.retryError(id);
        } catch (SQLException e) {
            if (!SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.is(e.getSQLState())) throw e;
            invocation.err.println("jdbc-repl: errors retry: " + Main.oneLine(e.getMessage()));
            return ExitCode.FAILED;
        }
        invocation.out.println("Entry " + id + " applied and removed from the error queue.");
        return ExitCode.OK;
    }

    static int delete(Invocation invocation) throws SQLException, UsageException {
        NodeAdmin admin = new NodeAdmin(ApplyCommands.node(invocation));
        long id = id(invocation);
        admin.deleteError(id);
        invocation.out.println("Entry " + id + " removed from the error queue without applying it.");
        return ExitCode.OK;
    }

    private static long id(Invocation invocation) throws UsageException {
        String operand = invocation.operands().get(0);
        try {
            return Long.parseLong(operand);
        } catch (NumberFormatException e) {
            throw new UsageException("'" + invocation.command.name + "' needs the entry's id as 'errors list' shows it,"
                    + " not '" + operand + "'");
        }
    }

    private static String table(RowLcr lcr) {
        return lcr.objectOwner() == null ? lcr.objectName() : lcr.objectOwner() + "." + lcr.objectName();
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ');
    }

    private static Map<String, Object> json(ErrorEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", new BigDecimal(e.id()));
        m.put("sourceDatabase", e.sourceDatabase());
        m.put("sourceTransactionId", e.sourceTransactionId());
        m.put("sourcePosition", new BigDecimal(e.sourcePosition()));
        m.put("messageNumber", new BigDecimal(e.messageNumber()));
        m.put("messageCount", new BigDecimal(e.messageCount()));
        m.put("errorCode", e.errorCode());
        m.put("errorMessage", e.errorMessage());
        m.put("createdAt", e.createdAt() == null ? null : e.createdAt().toString());
        if (!e.lcrs().isEmpty()) {
            m.put("lcrs", e.lcrs().stream().map(lcr -> {
                Map<String, Object> l = new LinkedHashMap<>();
                l.put("command", lcr.commandType().name());
                l.put("table", table(lcr));
                l.put("oldValues", Json.read(lcr.oldValues().valuesJson()));
                l.put("newValues", Json.read(lcr.newValues().valuesJson()));
                return l;
            }).toList());
        }
        return m;
    }
}
