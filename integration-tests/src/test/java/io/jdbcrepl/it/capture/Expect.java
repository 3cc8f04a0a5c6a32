package io.jdbcrepl.it.capture;

import java.util.List;

/** Expected LCR lines in the form of {@link LoggedLcr#brief()}. */
final class Expect {

    private Expect() {
    }

    static String insert(String table, String newValues, String changeVector) {
        return "INSERT " + table + " new{" + newValues + "} cv[" + changeVector + "]";
    }

    /** A PostgreSQL DDL LCR (SPEC 8.3): the statement as run, its command, the session's schema. */
    static String ddl(String table, String statement, String command, String schema) {
        return "DDL " + table + " new{statement=STRING:" + statement + ", command=STRING:" + command
                + ", current_schema=STRING:" + schema + ", vendor=STRING:postgresql} cv[]";
    }

    static String update(String table, String oldValues, String newValues, String changeVector) {
        return "UPDATE " + table + " old{" + oldValues + "} new{" + newValues + "} cv[" + changeVector + "]";
    }

    static String delete(String table, String oldValues) {
        return "DELETE " + table + " old{" + oldValues + "} cv[]";
    }

    /** One transaction's LCRs. */
    static List<String> tx(String... lcrs) {
        return List.of(lcrs);
    }

    /** {@code INTEGER:<v>} or {@code INTEGER:null}. */
    static String i(Object v) {
        return "INTEGER:" + v;
    }

    static String s(Object v) {
        return "STRING:" + v;
    }

    /** The columns of the tests' {@code item (id, name, qty, note)} table. */
    static String item(int id, String name, Integer qty, String note) {
        return "id=" + i(id) + ", name=" + s(name) + ", qty=" + i(qty) + ", note=" + s(note);
    }

    static final String ITEM_COLUMNS = "id, name, qty, note";
}
