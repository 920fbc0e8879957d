#version 300 es
// One triangle that covers the whole render target (no vertex buffer: the corners come from
// gl_VertexID), so the fragment shader runs once per output pixel of the heatmap.
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
