package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.mview.LogTrigger;
import io.jdbcrepl.mview.MviewSql;

import java.util.List;
import java.util.stream.Collectors;

/**
 * MySQL's and MariaDB's materialized-view logs: one trigger per event; names compared without
 * case; and writers that lock a master's views before their first change.
 */
final class MySqlMviewSql implements MviewSql {

    @Override
    public String sequenceType() {
        return "BIGINT NOT NULL AUTO_INCREMENT UNIQUE";
    }

    @Override
    public String timestampType() {
        return "DATETIME(6)";
    }

    @Override
    public String binaryType() {
        return "VARBINARY(255)";
    }

    @Override
    public String textType() {
        return "TEXT";
    }

    /** Whatever the server's default character set. */
    @Override
    public String tableOptions() {
        return " DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public String addColumn() {
        return "ADD ";
    }

    @Override
    public List<String> createTriggers(LogTrigger t) {
        String on = t.master();
        String all = "X'" + t.allColumnsHex() + "'";
        StringBuilder body = new StringBuilder("BEGIN ");
        if (!t.key().isEmpty()) {
            String same = t.key().stream().map(k -> "OLD." + k + " <=> NEW." + k).collect(Collectors.joining(" AND "));
            body.append("IF NOT (").append(same).append(") THEN ");
            for (String s : t.keyChangeRows(all)) body.append(s).append("; ");
            body.append("ELSE ");
            for (String s : t.updateRows(changed(t))) body.append(s).append("; ");
            body.append("END IF; ");
        } else {
            for (String s : t.updateRows(changed(t))) body.append(s).append("; ");
        }
        body.append("END");
        return List.of(
                "CREATE TRIGGER " + t.name("$ins") + " AFTER INSERT ON " + on + " FOR EACH ROW " + t.insert("NEW", "I", "N", all),
                "CREATE TRIGGER " + t.name("$del") + " AFTER DELETE ON " + on + " FOR EACH ROW " + t.insert("OLD", "D", "O", all),
                "CREATE TRIGGER " + t.name("$upd") + " AFTER UPDATE ON " + on + " FOR EACH ROW " + body);
    }

    /** The bits of the columns an UPDATE changed, computed from OLD and NEW. */
    private static String changed(LogTrigger t) {
        List<String> hexes = t.changedBytes((c, mask) -> "IF(OLD." + c + " <=> NEW." + c + ", 0, " + mask + ")").stream()
                .map(v -> "LPAD(HEX(" + v + "), 2, '0')").toList();
        return "UNHEX(CONCAT(" + String.join(", ", hexes) + "))";
    }

    @Override
    public List<String> dropTriggers(LogTrigger t) {
        return List.of("ins", "upd", "del").stream().map(event -> "DROP TRIGGER IF EXISTS " + t.name("$" + event)).toList();
    }

    @Override
    public String rowidReason() {
        return "MariaDB has no row identifier of its own";
    }

    /** The master's key is the view's: InnoDB then clusters its rows by it. */
    @Override
    public List<String> viewKey(String table, String index, String columns) {
        return List.of("ALTER TABLE " + table + " ADD PRIMARY KEY (" + columns + ")");
    }

    /** As {@code lower_case_table_names} says: case-insensitive is the safe side. */
    @Override
    public boolean namesIgnoreCase() {
        return true;
    }

    /**
     * InnoDB's refresh reads are locking reads (the transaction's snapshot may be older than the log
     * rows it stamps), and two writers that each read the other's uncommitted rows at commit would deadlock.
     */
    @Override
    public boolean locksMastersFirst() {
        return true;
    }
}
