export default function LandingPage() {
  return <h1>LiveDash</h1>;
}
