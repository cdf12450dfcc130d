package org.topupbatch.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's picture the docs show is committed, and is what the browser test writes: a PNG of
 * {@link DashboardScreenshot#WIDTH} x {@link DashboardScreenshot#HEIGHT}, under 200 KB. Regenerate it
 * with the command in docs/development.md.
 */
class DashboardScreenshotTest {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @Test
    void the_docs_dashboard_picture_is_a_png_of_the_browser_tests_size() throws Exception {
        Path png = DashboardScreenshot.IN_DOCS;
        assertThat(png).as("the dashboard's picture in the docs; see docs/development.md to take it").isRegularFile();
        byte[] bytes = Files.readAllBytes(png);
        assertThat(java.util.Arrays.copyOf(bytes, PNG_SIGNATURE.length)).as(png + " is a PNG").isEqualTo(PNG_SIGNATURE);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as(png + " can be read as an image").isNotNull();
        assertThat(image.getWidth() + " x " + image.getHeight()).as(png + "'s size")
                .isEqualTo(DashboardScreenshot.WIDTH + " x " + DashboardScreenshot.HEIGHT);
        assertThat((long) bytes.length).as(png + "'s bytes").isLessThan(DashboardScreenshot.MAX_BYTES);
    }
}
