// Mantine's mixins and rem() helpers in CSS need this preset.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
