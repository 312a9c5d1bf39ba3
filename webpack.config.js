// Builds the SPA into dist/public: hashed, long-cacheable chunks under assets/, and index.html.
const path = require('node:path');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const CopyPlugin = require('copy-webpack-plugin');
const zlib = require('node:zlib');
// index.html shows the English catalogue's banner before any script runs (the app then
// renders it in the language in effect), and runs the colour-scheme script whose hash the
// server's CSP allows (TypeScript, loaded through tsx).
const english = require('./src/i18n/locales/en.json');
const { COLOR_SCHEME_SCRIPT } = require('tsx/cjs/api').require(
  './common/colorScheme.ts',
  __filename,
);

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: './src/index.tsx',
    // The same syntax as swc-loader's target, for webpack's own runtime too.
    target: ['web', 'es2022'],
    output: {
      path: path.resolve(__dirname, 'dist/public'),
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      publicPath: '/',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.resolve(__dirname, 'src'),
        '@common': path.resolve(__dirname, 'common'),
      },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production } },
                target: 'es2022',
              },
            },
          },
        },
        {
          // The message catalogues, compiled for Lingui as they are built.
          test: /[\\/]i18n[\\/]locales[\\/]\w+\.json$/,
          type: 'javascript/auto',
          use: path.resolve(__dirname, 'scripts/catalogue-loader.cjs'),
        },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: 'public/index.html',
        templateParameters: {
          banner: english['shell.banner'],
          colorSchemeScript: COLOR_SCHEME_SCRIPT,
        },
      }),
      // The rest of public/ (favicon, robots.txt) as it is.
      new CopyPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] } }],
      }),
      new webpack.DefinePlugin({
        'process.env.API_HOST': JSON.stringify(process.env.API_HOST ?? ''),
        'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
      }),
      // Brotli and gzip copies of every file a page loads, at the strongest levels: they are
      // made once here, and the server sends them as they are (@fastify/static preCompressed).
      // Source maps only reach developer tools: not worth the build time.
      ...(production
        ? [
            new CompressionPlugin({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
              exclude: /\.map$/,
            }),
            new CompressionPlugin({
              filename: '[path][base].gz',
              algorithm: 'gzip',
              compressionOptions: { level: 9 },
              exclude: /\.map$/,
            }),
          ]
        : []),
    ],
    optimization: {
      minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify })],
      splitChunks: { chunks: 'all' },
    },
    performance: { hints: false },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    cache: { type: 'filesystem' },
    devServer: {
      port: 8080,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: 'http://127.0.0.1:3000' }],
    },
  };
};
