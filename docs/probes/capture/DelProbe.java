import java.sql.*;
import java.util.*;

/** A 200,000-row DELETE through raw MariaDB Connector/J vs jdbc:repl (one tree per run); rounds interleaved by the caller. */
public class DelProbe {
    public static void main(String[] a) throws Exception {
        String mode = a[0]; int rows = Integer.parseInt(a[1]);
        String db = "delprobe_" + mode.replaceAll("\\W", "");
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/", "root", ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db); s.execute("CREATE DATABASE " + db);
        }
        String[] stmts = {"DELETE FROM big WHERE id > 10", "DELETE FROM big WHERE g >= (SELECT MIN(g) FROM big b2) ORDER BY id DESC LIMIT " + (rows - 20)};
        String url = mode.equals("raw") ? "jdbc:mariadb://127.0.0.1:3306/" + db : "jdbc:repl:mariadb://127.0.0.1:3306/" + db + "?repl.node=n1";
        StringBuilder out = new StringBuilder(mode);
        for (String sql : stmts) {
            try (Connection raw = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/" + db, "root", ""); Statement s = raw.createStatement()) {
                s.execute("DROP TABLE IF EXISTS big");
                s.execute("CREATE TABLE big (id INT PRIMARY KEY, g INT NOT NULL, payload VARCHAR(100) NOT NULL)");
                s.execute("INSERT INTO big SELECT seq, seq % 2, REPEAT('x', 100) FROM seq_1_to_" + rows);
            }
            try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                long t = System.nanoTime();
                long n = s.executeLargeUpdate(sql);
                c.commit();
                out.append(String.format(" | %d rows %d ms", n, (System.nanoTime() - t) / 1_000_000));
            }
        }
        System.out.println(out);
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/", "root", ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE " + db);
        }
    }
}
