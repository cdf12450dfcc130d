package org.topupbatch.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation's links hold (issue 36): every relative link and {@code #anchor} of README.md and
 * docs/*.md leads somewhere, and so does every page the code cites (comments, messages, routes, deploy files).
 * A {@code README "Heading"} citation of before the docs tree is accepted while readme-headings.tsv
 * says where that section went; the code's own citations were rewritten from it as docs/PAGE.md#anchor
 * (Flyway migrations keep theirs: editing an applied migration changes its checksum). Fast, no network.
 */
class DocsLinksTest {

    private static final Path REPOSITORY = Path.of("");

    @Test
    void every_relative_link_and_anchor_of_readme_and_docs_resolves() {
        DocsTree tree = new DocsTree(REPOSITORY);
        List<String> problems = new ArrayList<>();
        tree.pages().forEach(page -> problems.addAll(tree.linkProblems(page)));
        assertThat(problems).as("broken links").isEmpty();
    }

    @Test
    void every_page_the_code_cites_resolves() {
        DocsTree tree = new DocsTree(REPOSITORY);
        CodeCitations citations = new CodeCitations(tree, CodeCitations.readmeHeadings());
        List<String> problems = new ArrayList<>(citations.mappingProblems());
        CodeCitations.sources(REPOSITORY, "src/main/java", "src/main/resources", "routes", "deploy", "BENCHMARKS.md")
                .forEach(file -> problems.addAll(citations.problems(file)));
        assertThat(problems).as("citations in src/main, routes, deploy and BENCHMARKS.md").isEmpty();
    }

    @Test
    void readme_stays_short_and_no_page_grows_past_about_500_lines() {
        DocsTree tree = new DocsTree(REPOSITORY);
        assertThat(DocsTree.lines(tree.page("README.md")).size()).as("README.md's lines").isLessThanOrEqualTo(200);
        for (Path page : tree.pages()) {
            assertThat(DocsTree.lines(page).size()).as(tree.name(page) + "'s lines (split the page)").isLessThanOrEqualTo(520);
        }
    }

    @Test
    void anchors_follow_githubs_rules() {
        assertThat(DocsTree.slug("Operating it: plan, status, cancel, hold, resume, reconcile, retry-failed"))
                .isEqualTo("operating-it-plan-status-cancel-hold-resume-reconcile-retry-failed");
        assertThat(DocsTree.slug("What `plan` shows")).isEqualTo("what-plan-shows");
        assertThat(DocsTree.slug("1. Exactly once: no order twice, no order lost")).isEqualTo("1-exactly-once-no-order-twice-no-order-lost");
        assertThat(DocsTree.slug("Behaviour beyond the decisions of [provider-client.md](provider-client.md)"))
                .isEqualTo("behaviour-beyond-the-decisions-of-provider-clientmd");
        assertThat(DocsTree.slug("Two nodes_and Ünïcode")).isEqualTo("two-nodes_and-ünïcode");
    }

    @Test
    void a_broken_link_a_missing_anchor_and_an_unknown_citation_are_each_reported(@TempDir Path repo) throws Exception {
        Files.createDirectories(repo.resolve("docs"));
        Files.createDirectories(repo.resolve("src/main/java/x"));
        write(repo.resolve("README.md"), """
                # Title
                [fine](docs/page.md#same-heading-1) [gone](docs/missing.md) [no anchor](docs/page.md#nowhere)
                `[in code](docs/missing.md)` and

                ```
                [in a block](docs/missing.md)
                ```
                """);
        write(repo.resolve("docs/page.md"), """
                # Same heading
                ## Same heading
                [up](../README.md#title) [self](#same-heading) [off](#off)
                """);
        write(repo.resolve("src/main/java/x/A.java"), """
                /** As docs/page.md#same-heading says, and docs/page.md#off, README "Known", README "Not
                 * known", docs/page.md "Same heading", docs/page.md, "No such". */
                """);
        DocsTree tree = new DocsTree(repo);
        List<String> links = new ArrayList<>();
        tree.pages().forEach(page -> links.addAll(tree.linkProblems(page)));
        assertThat(links).containsExactly(
                "README.md:2: (docs/missing.md) no such file docs/missing.md",
                "README.md:2: (docs/page.md#nowhere) no heading of docs/page.md makes the anchor #nowhere",
                "docs/page.md:3: (#off) no heading of docs/page.md makes the anchor #off");
        CodeCitations citations = new CodeCitations(tree, Map.of("Known", "docs/page.md#same-heading"));
        assertThat(citations.problems(repo.resolve("src/main/java/x/A.java"))).containsExactly(
                "src/main/java/x/A.java:1: README \"Not known\" is no heading readme-headings.tsv knows",
                "src/main/java/x/A.java:1: docs/page.md#off: no heading of docs/page.md makes the anchor #off",
                "src/main/java/x/A.java:2: docs/page.md: no heading \"No such\" in docs/page.md");
        assertThat(new CodeCitations(tree, Map.of("Known", "docs/page.md#gone")).mappingProblems())
                .containsExactly("readme-headings.tsv: \"Known\" -> docs/page.md#gone: no heading of docs/page.md makes the anchor #gone");
    }

    private static void write(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
