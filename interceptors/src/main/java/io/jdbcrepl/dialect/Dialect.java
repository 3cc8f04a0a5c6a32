package io.jdbcrepl.dialect;

import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.ValueType;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the driver knows about one database: how it quotes and folds identifiers, the SQL it
 * speaks, what it can do. One subclass per database, each in its own package under
 * {@code io.jdbcrepl.dialect}, registered in {@code META-INF/services/io.jdbcrepl.dialect.Dialect};
 * the rest of the driver asks the dialect rather than testing which database it is.
 *
 * <p>What differs per database in one concept (capture, the change log, apply, materialized views)
 * is an interface of that concept's package, its <em>part</em>; each database implements it in its
 * own package and the concept asks {@link #part(Class)}. A part that needs no database I/O is listed
 * by the dialect subclass ({@link #parts()}); one that does lives in the driver module, in the same
 * vendor package, listed by that package's {@link DialectParts} service. Adding a database means
 * adding its package, with its dialect and its parts, and registering both.
 */
public abstract class Dialect {

    private static final List<Dialect> ALL = ServiceLoader.load(Dialect.class, Dialect.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get).toList();

    /** The subprotocols of the JDBC URLs this dialect speaks for ({@code postgresql}, {@code mariadb}). */
    protected abstract List<String> subprotocols();

    /** The dialect's name: its first subprotocol. */
    public final String name() {
        return subprotocols().get(0);
    }

    /** Every dialect this build knows. */
    public static List<Dialect> all() {
        return ALL;
    }

    /** The dialect named {@code name} (a subprotocol: {@code postgresql}, {@code mariadb}, {@code mysql}, {@code h2}). */
    public static Dialect named(String name) {
        return ofSubprotocol(name).orElseThrow(() -> new IllegalArgumentException("no dialect " + name));
    }

    /**
     * The subprotocol of a JDBC URL, {@code jdbc:<subprotocol>:...} ({@code postgresql}, {@code h2},
     * another driver's), or "" when it is not one. The one place that reads it from a URL.
     */
    public static String subprotocol(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) return "";
        int end = jdbcUrl.indexOf(':', "jdbc:".length());
        return end < 0 ? "" : jdbcUrl.substring("jdbc:".length(), end);
    }

    /** The dialect of a JDBC URL, empty for a database the driver does not capture on. */
    public static Optional<Dialect> ofUrl(String jdbcUrl) {
        return ofSubprotocol(subprotocol(jdbcUrl));
    }

    /** The dialect of a JDBC URL; refused (naming the subprotocol) for a database the driver does not capture on. */
    public static Dialect forUrl(String jdbcUrl) throws SQLException {
        String subprotocol = subprotocol(jdbcUrl);
        if (ALL.isEmpty()) {
            throw SqlState.SYSTEM_ERROR.exception("this copy of jdbc:repl knows no database: META-INF/services/"
                + Dialect.class.getName() + " is missing (a jar repackaged without its service files?)");
        }
        return ofSubprotocol(subprotocol).orElseThrow(() -> SqlState.REFUSED.exception("jdbc:repl captures and applies on "
                + String.join(", ", ALL.stream().flatMap(d -> d.subprotocols().stream()).toList()) + ", not on '"
                + subprotocol + "' (of a URL starting jdbc:" + subprotocol + ":)"));
    }

    /** The dialect of a JDBC subprotocol, empty for a database the driver does not capture on. */
    public static Optional<Dialect> ofSubprotocol(String subprotocol) {
        String wanted = subprotocol == null ? "" : subprotocol.toLowerCase(Locale.ROOT);
        return ALL.stream().filter(d -> d.subprotocols().contains(wanted)).findFirst();
    }

    /** An identifier quoted for this dialect's SQL: {@code "name"} unless the dialect says otherwise. */
    public String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** A string literal of this dialect's SQL holding {@code text}, read back by the database as exactly {@code text}. */
    public String stringLiteral(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /**
     * The name an identifier written this way stands for: quoted ({@code "Order"}, {@code `Order`})
     * keeps its case without the quotes; unquoted folds as the dialect does ({@link #fold(String, boolean)}).
     */
    public String fold(String identifier) {
        return Identifiers.isQuoted(identifier) ? Identifiers.unquote(identifier) : fold(identifier, false);
    }

    /** The name an identifier stands for, given without quotes and whether it was quoted. */
    public String fold(String name, boolean quoted) {
        return quoted || name == null ? name : foldUnquoted(name);
    }

    /** The name an unquoted identifier stands for. */
    protected abstract String foldUnquoted(String name);

    /**
     * This database's implementation of {@code part}, an interface of a concept's package: from
     * {@link #parts()}, then from the {@link DialectParts} of this dialect's package, then those of
     * the package of the dialect it extends (MariaDB's parts fall back to MySQL's).
     *
     * @throws IllegalStateException when the database has none: a build that misses a part
     */
    public final <T> T part(Class<T> part) {
        return part.cast(found.computeIfAbsent(part, this::findPart));
    }

    /** The parts this dialect holds itself: none unless a subclass says so. */
    protected List<Object> parts() {
        return List.of();
    }

    private final Map<Class<?>, Object> found = new ConcurrentHashMap<>();

    private Object findPart(Class<?> part) {
        for (Object p : parts()) {
            if (part.isInstance(p)) return p;
        }
        List<ServiceLoader.Provider<DialectParts>> providers = ServiceLoader.load(DialectParts.class,
                Dialect.class.getClassLoader()).stream().toList();
        for (Class<?> c = getClass(); Dialect.class.isAssignableFrom(c); c = c.getSuperclass()) {
            String pkg = c.getPackageName();
            for (ServiceLoader.Provider<DialectParts> provider : providers) {
                if (!provider.type().getPackageName().equals(pkg)) continue; // load only this vendor's classes
                for (Object p : provider.get().parts()) {
                    if (part.isInstance(p)) return p;
                }
            }
        }
        throw new IllegalStateException("the " + name() + " dialect has no " + part.getName() + " (is the jar repackaged"
                + " without its META-INF/services/" + DialectParts.class.getName() + "?)");
    }

    @Override
    public String toString() {
        return name();
    }

    // ---- log, mview ----

    /**
     * Whether JDBC's metadata names a schema as a catalog (MySQL, where a schema is a database):
     * then {@code getTables(schema, null, ...)} finds a schema's tables, else {@code getTables(null, schema, ...)}.
     */
    public boolean schemasAreCatalogs() {
        return false;
    }

    /** The database as messages name it ({@code PostgreSQL}, {@code MySQL/MariaDB}, {@code H2}). */
    public abstract String product();

    // ---- node ----

    /**
     * Whether unquoted identifiers fold to upper case (H2), which decides how configured names
     * ({@code repl.tables}, {@code repl.key.<table>}) match stored ones.
     */
    public boolean foldsToUpper() {
        return "A".equals(foldUnquoted("a"));
    }

    // ---- capture ----

    /**
     * Whether a column of SQL type {@code typeName} that reads as a local date-time holds an instant,
     * read and written as the wall time of the session's time zone (MySQL's {@code TIMESTAMP}, not
     * its {@code DATETIME}); capture logs it as the instant.
     */
    public boolean timestampInSessionZone(String typeName) {
        return false;
    }

    // ---- values ----

    /**
     * What a SELECT reads for a column of this type: the column, unless the database keeps such
     * values outside the row (a PostgreSQL large object: the row holds its number, the log its bytes).
     */
    public String readValue(ValueType type, String columnSql) {
        return columnSql;
    }

    /** What an INSERT or UPDATE assigns to a column of this type for the value bound to {@code placeholder}. */
    public String writeValue(ValueType type, String placeholder) {
        return placeholder;
    }
}
