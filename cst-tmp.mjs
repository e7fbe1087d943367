import { parse } from 'java-parser';
const src = process.argv[2];
const cst = parse(src);
function show(n, d) {
  if (n.image !== undefined) { console.log(' '.repeat(d) + JSON.stringify(n.image)); return; }
  console.log(' '.repeat(d) + n.name);
  const kids = Object.values(n.children).flat().sort((a,b)=>(a.startOffset??a.location.startOffset)-(b.startOffset??b.location.startOffset));
  for (const k of kids) show(k, d+1);
}
show(cst, 0);
