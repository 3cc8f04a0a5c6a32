package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.mview.LogTrigger;
import io.jdbcrepl.mview.MviewSql;

import java.util.List;
import java.util.stream.Collectors;

/** PostgreSQL's materialized-view logs: one PL/pgSQL trigger function; and its own materialized views beside the driver's. */
final class PostgresMviewSql implements MviewSql {

    @Override
    public String binaryType() {
        return "BYTEA";
    }

    @Override
    public String textType() {
        return "TEXT";
    }

    @Override
    public List<String> createTriggers(LogTrigger t) {
        String all = "decode('" + t.allColumnsHex() + "', 'hex')";
        StringBuilder body = new StringBuilder("BEGIN\n IF TG_OP = 'INSERT' THEN\n  ")
                .append(t.insert("NEW", "I", "N", all)).append(";\n ELSIF TG_OP = 'DELETE' THEN\n  ")
                .append(t.insert("OLD", "D", "O", all)).append(";\n");
        if (!t.key().isEmpty()) {
            String oldKey = t.key().stream().map(k -> "OLD." + k).collect(Collectors.joining(", "));
            String newKey = t.key().stream().map(k -> "NEW." + k).collect(Collectors.joining(", "));
            body.append(" ELSIF ROW(").append(oldKey).append(") IS DISTINCT FROM ROW(").append(newKey).append(") THEN\n");
            for (String s : t.keyChangeRows(all)) body.append("  ").append(s).append(";\n");
        }
        body.append(" ELSE\n");
        for (String s : t.updateRows(changed(t))) body.append("  ").append(s).append(";\n");
        body.append(" END IF;\n RETURN NULL;\nEND");
        String function = t.name("$fn");
        return List.of("CREATE FUNCTION " + function + "() RETURNS trigger LANGUAGE plpgsql AS $repl$" + body + "$repl$",
                "CREATE TRIGGER " + t.localName("$trg") + " AFTER INSERT OR UPDATE OR DELETE ON " + t.master()
                        + " FOR EACH ROW EXECUTE FUNCTION " + function + "()");
    }

    /** The bits of the columns an UPDATE changed, computed from OLD and NEW. */
    private static String changed(LogTrigger t) {
        List<String> hexes = t.changedBytes((c, mask) -> "(CASE WHEN OLD." + c + " IS DISTINCT FROM NEW." + c + " THEN " + mask
                + " ELSE 0 END)").stream().map(v -> "lpad(to_hex(" + v + "), 2, '0')").toList();
        return "decode(" + String.join(" || ", hexes) + ", 'hex')";
    }

    @Override
    public List<String> dropTriggers(LogTrigger t) {
        return List.of("DROP TRIGGER IF EXISTS " + t.localName("$trg") + " ON " + t.master(),
                "DROP FUNCTION IF EXISTS " + t.name("$fn") + "()");
    }

    @Override
    public String rowidReason() {
        return "PostgreSQL's ctid changes on every UPDATE and on VACUUM FULL, so it identifies no row for long";
    }

    /** A refresh updates such a view's rows in place: Oracle's PCTFREE 10 leaves room for them (HOT updates). */
    @Override
    public List<String> viewKey(String table, String index, String columns) {
        return List.of("CREATE UNIQUE INDEX " + index + " ON " + table + " (" + columns + ")",
                "ALTER TABLE " + table + " SET (fillfactor = 90)");
    }

    @Override
    public boolean ownMaterializedViews() {
        return true;
    }
}
