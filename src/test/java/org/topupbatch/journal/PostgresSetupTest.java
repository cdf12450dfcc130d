package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.PostgresServer;
import org.topupbatch.testing.TestedBlocks;

/**
 * The PostgreSQL setup SQL of docs/running-as-a-service.md, read from the page itself and run as written on a
 * PostgreSQL that has the 15+ rules; then the product's migrations run as the user it created.
 */
class PostgresSetupTest {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    /** The user, database and password the page's SQL names. */
    static final String USER = "topup";
    static final String PASSWORD = "choose-a-password";

    @TempDir
    Path data;

    @AfterEach
    void dropReadmeDatabaseAndUser() {
        POSTGRES.superuserExecute("DROP DATABASE IF EXISTS topup WITH (FORCE)", "DROP ROLE IF EXISTS topup");
    }

    @Test
    void the_servers_in_the_suite_have_the_postgresql_15_rules() {
        assertThat(POSTGRES.majorVersion()).isGreaterThanOrEqualTo(15);
    }

    @Test
    void the_owner_form_lets_the_product_create_its_tables() throws Exception {
        List<String> ownerForm = readmeSqlBlocks().get(0);
        assertThat(ownerForm).anySatisfy(sql -> assertThat(sql).contains("OWNER"));

        POSTGRES.superuserExecute(ownerForm.toArray(String[]::new));

        assertMigrationsRunAsTheReadmeUser();
    }

    @Test
    void a_database_grant_alone_is_not_enough_and_the_schema_grant_is() throws Exception {
        List<String> blocks0 = readmeSqlBlocks().get(0);
        String createUser = blocks0.stream().filter(s -> s.startsWith("CREATE USER")).findFirst().orElseThrow();
        POSTGRES.superuserExecute(createUser, "CREATE DATABASE topup", "GRANT ALL ON DATABASE topup TO topup");
        PostgresServer.Database db = POSTGRES.database("topup", USER, PASSWORD);

        assertThatThrownBy(() -> JdbcJournal.open(data, db.url(), db.user(), db.password()).close())
                .isInstanceOf(JournalException.class)
                .hasMessageContaining("permission denied for schema public");

        PostgresServer.Database asSuperuser = POSTGRES.database("topup", PostgresServer.SUPERUSER, "");
        try (Connection c = asSuperuser.connect(); Statement s = c.createStatement()) {
            for (String sql : readmeSqlBlocks().get(1)) {
                s.execute(sql);
            }
        }
        assertMigrationsRunAsTheReadmeUser();
    }

    private void assertMigrationsRunAsTheReadmeUser() throws SQLException {
        PostgresServer.Database db = POSTGRES.database("topup", USER, PASSWORD);
        try (JdbcJournal journal = JdbcJournal.open(data, db.url(), db.user(), db.password())) {
            try (BatchWriter writer = journal.intake().openBatch("a.csv", ',', List.of(), "archive/a.csv")) {
                writer.add(JournalContractTest.accepted(0, "SETUP-1"));
                writer.commit();
            }
            assertThat(journal.tracking().findOrder("SETUP-1")).isPresent();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT tableowner FROM pg_tables WHERE tablename = 'batch_row'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(USER);
        }
    }

    /** The statements of each ```sql block docs/running-as-a-service.md marks {@code tested: postgres-setup}, in order. */
    static List<List<String>> readmeSqlBlocks() throws IOException {
        List<List<String>> blocks = new ArrayList<>();
        for (String block : TestedBlocks.of("docs/running-as-a-service.md", "postgres-setup")) {
            blocks.add(Arrays.stream(block.split(";\\s*\\n"))
                    .map(String::strip).filter(sql -> !sql.isEmpty()).toList());
        }
        assertThat(blocks).as("sql blocks of docs/running-as-a-service.md, PostgreSQL setup").hasSize(2);
        return blocks;
    }
}
