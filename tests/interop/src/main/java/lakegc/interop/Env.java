package lakegc.interop;

import org.apache.hudi.client.common.HoodieSparkEngineContext;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/** One Spark session (local[2]) per JVM, started on first use. */
final class Env {
  private static SparkSession spark;
  private static JavaSparkContext jsc;
  private static HoodieSparkEngineContext engine;
  static long sparkStartMs = -1;

  private Env() {}

  static synchronized SparkSession spark() {
    if (spark == null) {
      long t0 = System.currentTimeMillis();
      spark = SparkSession.builder()
          .master(System.getProperty("lakegc.interop.master", "local[2]"))
          .appName("lakegc-interop")
          .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
          .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
          .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
          .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          .config("spark.ui.enabled", "false")
          .config("spark.ui.showConsoleProgress", "false")
          .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "2")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.sql.warehouse.dir", System.getProperty("java.io.tmpdir") + "/lakegc-interop-warehouse")
          .getOrCreate();
      spark.sparkContext().setLogLevel("ERROR");
      jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      engine = new HoodieSparkEngineContext(jsc);
      sparkStartMs = System.currentTimeMillis() - t0;
    }
    return spark;
  }

  static JavaSparkContext jsc() {
    spark();
    return jsc;
  }

  static HoodieSparkEngineContext engine() {
    spark();
    return engine;
  }

  static StorageConfiguration<?> storageConf() {
    return HadoopFSUtils.getStorageConfWithCopy(jsc().hadoopConfiguration());
  }

  static HoodieTableMetaClient metaClient(String basePath) {
    return HoodieTableMetaClient.builder().setConf(storageConf()).setBasePath(basePath).build();
  }

  static synchronized void stop() {
    if (spark != null) spark.stop();
    spark = null;
  }
}
