package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.ddl.TableDdl.Identity;
import io.jdbcrepl.ddl.TableDdl.NativeColumn;
import io.jdbcrepl.ddl.TableDefinition.Column;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan of a joining node's missing table, from a definition given by hand: types, names, defaults, refusals. */
class TableCreationTest {

    private static final Dialect PG = Dialect.named("postgresql");
    private static final Dialect MARIADB = Dialect.named("mariadb");
    private static final Dialect H2 = Dialect.named("h2");

    private static Column column(String name, int jdbcType, String typeName, int size, int scale, ValueType type) {
        return column(name, jdbcType, typeName, size, scale, type, new NativeColumn(typeName, null, Identity.NONE, false, null, -1));
    }

    private static Column column(String name, int jdbcType, String typeName, int size, int scale, ValueType type, NativeColumn nat) {
        return new Column(name, jdbcType, typeName, size, scale, true, type, nat);
    }

    private static TableDefinition table(String schema, String name, List<String> key, List<Column> columns) {
        return new TableDefinition(schema, name, columns, null, key, List.of(), List.of());
    }

    /** The CREATE TABLE's line of a column. */
    private static String line(TableCreation.TablePlan plan, String quotedColumn) {
        return plan.createTable().get(0).lines().map(String::trim).filter(l -> l.startsWith(quotedColumn + " ")).findFirst()
                .orElseThrow(() -> new AssertionError(quotedColumn + " not in " + plan.createTable().get(0)));
    }

    @Test
    void postgresqlColumnsOnMariaDbGetTheTypesApplyStoresTheirValuesIn() throws SQLException {
        TableDefinition t = table("public", "docs", List.of("slug"), List.of(
                column("slug", Types.VARCHAR, "text", Integer.MAX_VALUE, 0, ValueType.STRING),
                column("body", Types.VARCHAR, "text", Integer.MAX_VALUE, 0, ValueType.STRING),
                column("code", Types.CHAR, "bpchar", 3, 0, ValueType.STRING),
                column("title", Types.VARCHAR, "varchar", 200, 0, ValueType.STRING),
                column("price", Types.NUMERIC, "numeric", 12, 3, ValueType.DECIMAL),
                column("ratio", Types.NUMERIC, "numeric", 0, 0, ValueType.DECIMAL),
                column("r", Types.REAL, "float4", 8, 8, ValueType.FLOAT),
                column("d", Types.DOUBLE, "float8", 17, 17, ValueType.FLOAT),
                column("ok", Types.BIT, "bool", 1, 0, ValueType.BOOLEAN),
                column("at", Types.TIMESTAMP, "timestamptz", 35, 6,
                        ValueType.TIMESTAMPTZ, new NativeColumn("timestamp(6) with time zone", "now()", Identity.NONE, false, null, -1)),
                column("t", Types.TIME, "time", 15, 3, ValueType.TIME),
                column("id", Types.OTHER, "uuid", 2147483647, 0, ValueType.UUID_),
                column("doc", Types.OTHER, "jsonb", 2147483647, 0, ValueType.JSON),
                column("bin", Types.BINARY, "bytea", 2147483647, 0, ValueType.BINARY),
                column("n", Types.BIGINT, "int8", 19, 0, ValueType.INTEGER,
                        new NativeColumn("bigint", null, Identity.ALWAYS, false, null, -1))));
        TableCreation.TablePlan plan = TableCreation.plan(t, PG, MARIADB, "shop");

        assertThat(plan.localTable()).isEqualTo("`shop`.`docs`");
        assertThat(line(plan, "`slug`")).isEqualTo("`slug` VARCHAR(255),"); // a key: InnoDB needs a length
        assertThat(line(plan, "`body`")).isEqualTo("`body` LONGTEXT,");
        assertThat(line(plan, "`code`")).isEqualTo("`code` VARCHAR(3),"); // CHAR pads differently on each
        assertThat(line(plan, "`title`")).isEqualTo("`title` VARCHAR(200),");
        assertThat(line(plan, "`price`")).isEqualTo("`price` DECIMAL(12,3),");
        assertThat(line(plan, "`ratio`")).isEqualTo("`ratio` DECIMAL(65,30),");
        assertThat(line(plan, "`r`")).isEqualTo("`r` FLOAT,");
        assertThat(line(plan, "`d`")).isEqualTo("`d` DOUBLE,");
        assertThat(line(plan, "`ok`")).isEqualTo("`ok` BOOLEAN,");
        assertThat(line(plan, "`at`")).isEqualTo("`at` DATETIME(6) DEFAULT (UTC_TIMESTAMP(6)),"); // UTC, as apply stores it
        assertThat(line(plan, "`t`")).isEqualTo("`t` TIME(3),");
        assertThat(line(plan, "`id`")).isEqualTo("`id` CHAR(36),");
        assertThat(line(plan, "`doc`")).isEqualTo("`doc` JSON,");
        assertThat(line(plan, "`bin`")).isEqualTo("`bin` LONGBLOB,");
        assertThat(line(plan, "`n`")).isEqualTo("`n` BIGINT AUTO_INCREMENT,");
        assertThat(plan.createTable().get(0)).endsWith("PRIMARY KEY (`slug`)\n)");
    }

    @Test
    void mariaDbColumnsOnPostgresqlWidenUnsignedIntegersAndSayWhatAnEnumLoses() throws SQLException {
        TableDefinition t = new TableDefinition("shop", "Orders", List.of(
                column("id", Types.INTEGER, "INT UNSIGNED", 10, 0, ValueType.INTEGER,
                        new NativeColumn("int(10) unsigned", null, Identity.BY_DEFAULT, false, null, -1)),
                column("big", Types.BIGINT, "BIGINT UNSIGNED", 20, 0, ValueType.INTEGER),
                column("tiny", Types.TINYINT, "TINYINT", 3, 0, ValueType.INTEGER),
                column("flag", Types.BOOLEAN, "BOOLEAN", 3, 0, ValueType.BOOLEAN,
                        new NativeColumn("tinyint(1)", "1", Identity.NONE, false, null, -1)),
                column("y", Types.DATE, "YEAR", 0, 0, ValueType.INTEGER),
                column("state", Types.VARCHAR, "ENUM", 7, 0, ValueType.STRING,
                        new NativeColumn("enum('new','shipped')", "'new'", Identity.NONE, false, "the allowed values are not kept", -1)),
                column("at", Types.TIMESTAMP, "TIMESTAMP", 26, 0, ValueType.TIMESTAMPTZ,
                        new NativeColumn("timestamp(6)", "current_timestamp(6)", Identity.NONE, false, null, 6)),
                column("seen", Types.TIMESTAMP, "DATETIME", 19, 0, ValueType.TIMESTAMP,
                        new NativeColumn("datetime", "'2020-01-01 00:00:00'", Identity.NONE, false, null, 0)),
                column("code", Types.VARCHAR, "VARCHAR", 10, 0, ValueType.STRING,
                        new NativeColumn("varchar(10)", "uuid()", Identity.NONE, false, null, -1))),
                "PRIMARY", List.of("id"),
                List.of(new TableDefinition.Index("by_state", false, false, List.of("state", "at"), List.of(false, true)),
                        new TableDefinition.Index("orders_code", true, true, List.of("code"), List.of(false))),
                List.of(new TableDefinition.ForeignKey("fk_customer", List.of("big"), "shop", "customers", List.of("id"),
                        DatabaseMetaData.importedKeyCascade, DatabaseMetaData.importedKeyNoAction)));
        TableCreation.TablePlan plan = TableCreation.plan(t, MARIADB, PG, "public");

        // MariaDB keeps a name as written and matches it in any case: folded as PostgreSQL folds
        assertThat(plan.localTable()).isEqualTo("\"public\".\"orders\"");
        assertThat(line(plan, "\"id\"")).isEqualTo("\"id\" bigint GENERATED BY DEFAULT AS IDENTITY,");
        assertThat(line(plan, "\"big\"")).isEqualTo("\"big\" numeric(20),");
        assertThat(line(plan, "\"tiny\"")).isEqualTo("\"tiny\" smallint,");
        assertThat(line(plan, "\"flag\"")).isEqualTo("\"flag\" boolean DEFAULT TRUE,");
        assertThat(line(plan, "\"y\"")).isEqualTo("\"y\" smallint,");
        assertThat(line(plan, "\"state\"")).isEqualTo("\"state\" varchar(7) DEFAULT 'new',");
        assertThat(line(plan, "\"at\"")).isEqualTo("\"at\" timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP,");
        assertThat(line(plan, "\"seen\"")).isEqualTo("\"seen\" timestamp(0) DEFAULT '2020-01-01 00:00:00',");
        assertThat(line(plan, "\"code\"")).isEqualTo("\"code\" varchar(10),");
        assertThat(plan.notes()).containsExactly("column state: the allowed values are not kept",
                "column code: default uuid() not kept");
        // MariaDB's index names are the table's own, PostgreSQL's the schema's: prefixed with the table's
        assertThat(plan.createTable()).contains("CREATE INDEX \"orders_by_state\" ON \"public\".\"orders\" (\"state\", \"at\" DESC)");
        assertThat(plan.createTable().get(0)).contains("PRIMARY KEY (\"id\")", "CONSTRAINT \"orders_code\" UNIQUE (\"code\")")
                .doesNotContain("PRIMARY\"");
        assertThat(plan.constraints()).containsExactly("ALTER TABLE \"public\".\"orders\" ADD CONSTRAINT \"orders_fk_customer\""
                + " FOREIGN KEY (\"big\") REFERENCES \"public\".\"customers\" (\"id\") ON DELETE CASCADE");
    }

    @Test
    void onH2UnquotedNamesFoldToUpperCaseAndAnUnboundedNumericIsADecfloat() throws SQLException {
        TableDefinition t = table("public", "items", List.of("id"), List.of(
                column("id", Types.INTEGER, "int4", 10, 0, ValueType.INTEGER),
                column("MixedCase", Types.NUMERIC, "numeric", 0, 0, ValueType.DECIMAL),
                column("note", Types.VARCHAR, "varchar", 30, 0, ValueType.STRING,
                        new NativeColumn("character varying(30)", "'it''s'::character varying", Identity.NONE, false, null, -1))));
        TableCreation.TablePlan plan = TableCreation.plan(t, PG, H2, "PUBLIC");

        assertThat(plan.localTable()).isEqualTo("\"PUBLIC\".\"ITEMS\"");
        assertThat(line(plan, "\"ID\"")).isEqualTo("\"ID\" INTEGER,");
        assertThat(line(plan, "\"MixedCase\"")).isEqualTo("\"MixedCase\" DECFLOAT,");
        assertThat(line(plan, "\"NOTE\"")).isEqualTo("\"NOTE\" CHARACTER VARYING(30) DEFAULT 'it''s',");
    }

    @Test
    void theSameDatabaseGetsTheDonorsOwnDefinition() throws SQLException {
        TableDefinition t = new TableDefinition("public", "t", List.of(
                column("id", Types.INTEGER, "serial", 10, 0, ValueType.INTEGER,
                        new NativeColumn("integer", null, Identity.BY_DEFAULT, false, null, -1)),
                column("amount", Types.NUMERIC, "numeric", 12, 3, ValueType.DECIMAL,
                        new NativeColumn("numeric(12,3)", "0.5", Identity.NONE, false, null, -1)),
                column("tags", Types.ARRAY, "_text", 0, 0, ValueType.STRING,
                        new NativeColumn("text[]", "'{}'::text[]", Identity.NONE, false, null, -1))),
                "t_pkey", List.of("id"), List.of(new TableDefinition.Index("t_amount_idx", true, false, List.of("amount"), List.of(false)),
                        new TableDefinition.Index("t_lower_idx", false, false, List.of("lower(tags)"), List.of(false))), List.of());
        TableCreation.TablePlan plan = TableCreation.plan(t, PG, PG, "app");

        assertThat(plan.createTable().get(0)).isEqualTo("""
                CREATE TABLE "app"."t" (
                  "id" integer GENERATED BY DEFAULT AS IDENTITY,
                  "amount" numeric(12,3) DEFAULT 0.5,
                  "tags" text[] DEFAULT '{}'::text[],
                  CONSTRAINT "t_pkey" PRIMARY KEY ("id")
                )""");
        // a unique index that is no constraint on the donor stays an index; an index on an expression is said, not created
        assertThat(plan.createTable()).containsExactly(plan.createTable().get(0), "CREATE UNIQUE INDEX \"t_amount_idx\" ON \"app\".\"t\" (\"amount\")");
        assertThat(plan.notes()).containsExactly("index t_lower_idx is on an expression (lower(tags)): not created");
    }

    @Test
    void aColumnNoTypeHereHoldsIsRefusedNamingIt() {
        TableDefinition interval = table("public", "spans", List.of(), List.of(
                column("took", Types.OTHER, "interval", 49, 6, ValueType.STRING)));
        assertThatThrownBy(() -> TableCreation.plan(interval, PG, MARIADB, "app"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0AR01"))
                .hasMessageContaining("public.spans.took").hasMessageContaining("interval");

        TableDefinition wide = table("public", "w", List.of(), List.of(column("big", Types.NUMERIC, "numeric", 100, 2, ValueType.DECIMAL)));
        assertThatThrownBy(() -> TableCreation.plan(wide, PG, MARIADB, "app")).hasMessageContaining("public.w.big");

        TableDefinition computed = table("public", "c", List.of(), List.of(column("total", Types.INTEGER, "int4", 10, 0, ValueType.INTEGER,
                new NativeColumn("integer GENERATED ALWAYS AS (a + b) STORED", null, Identity.NONE, true, null, -1))));
        assertThatThrownBy(() -> TableCreation.plan(computed, PG, H2, "app")).hasMessageContaining("computed");

        TableDefinition unread = table("PUBLIC", "E", List.of(), List.of(column("KIND", Types.OTHER, "ENUM", 5, 0, ValueType.STRING,
                new NativeColumn(null, null, Identity.NONE, false, null, -1))));
        assertThatThrownBy(() -> TableCreation.plan(unread, H2, H2, "PUBLIC")).hasMessageContaining("PUBLIC.E.KIND");
    }

    @Test
    void onlyLiteralsAndTheCurrentTimeAreDefaultsAnotherDatabaseKeeps() {
        TableDdl mariaDb = MARIADB.part(TableDdl.class);
        Column text = column("s", Types.VARCHAR, "varchar", 10, 0, ValueType.STRING);
        Column number = column("n", Types.INTEGER, "int4", 10, 0, ValueType.INTEGER);
        Column local = column("ts", Types.TIMESTAMP, "timestamp", 29, 3, ValueType.TIMESTAMP);
        assertThat(TableCreation.portableDefault("'a\\b'::character varying", text, mariaDb, MARIADB)).isNull(); // backslashes differ
        assertThat(TableCreation.portableDefault("'O''Brien'::text", text, mariaDb, MARIADB)).isEqualTo("'O''Brien'");
        assertThat(TableCreation.portableDefault("(-1)", number, mariaDb, MARIADB)).isEqualTo("-1");
        assertThat(TableCreation.portableDefault("'-1'::integer", number, mariaDb, MARIADB)).isEqualTo("-1");
        assertThat(TableCreation.portableDefault("nextval('t_id_seq'::regclass)", number, mariaDb, MARIADB)).isNull();
        assertThat(TableCreation.portableDefault("now()", local, mariaDb, MARIADB)).isEqualTo("CURRENT_TIMESTAMP(3)");
        assertThat(TableCreation.portableDefault("now()", text, mariaDb, MARIADB)).isNull();
        assertThat(TableCreation.portableDefault("NULL", text, mariaDb, MARIADB)).isNull();
    }
}
